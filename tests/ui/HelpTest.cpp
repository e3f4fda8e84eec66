// Help > User guide renders docs/user-guide.md from the binary (its headings and screenshots
// resolve), and Help > Keyboard and mouse lists the window's real shortcuts and the views'
// bindings.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include "tests/ui/UiTestSupport.h"
#include "ui/main/HelpWindow.h"

namespace tomo::ui {
namespace {

TEST(Help, UserGuideIsTheRepositoryGuideWithItsImages) {
    test::WindowFixture f;
    HelpWindow* help = f.window->showHelp(HelpWindow::Page::UserGuide);
    ASSERT_NE(help, nullptr);
    const QString text = help->browser()->toPlainText();
    QFile source(QStringLiteral(":/help/user-guide.md"));
    ASSERT_TRUE(source.open(QIODevice::ReadOnly));
    const QString markdown = QString::fromUtf8(source.readAll());
    // The first heading of the repository's guide is the document's first line.
    const QString heading = markdown.section(QLatin1Char('\n'), 0, 0).remove(QLatin1Char('#'));
    EXPECT_TRUE(text.startsWith(heading.trimmed())) << text.left(80).toStdString();
    EXPECT_GT(text.size(), 3000);
    // Every screenshot the guide names is in the resources and loads as an image.
    int images = 0;
    for (const QString& name : {QStringLiteral("gui-main.png"), QStringLiteral("gui-sweep.png")}) {
        QVariant image = help->browser()->document()->resource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("images/") + name));
        EXPECT_TRUE(image.isValid()) << name.toStdString();
        images += image.isValid() ? 1 : 0;
    }
    EXPECT_EQ(images, 2);
    // Every image is drawn at most as wide as the window shows (issue 28, point 13): none
    // overflows, at the dialog's size or after the user narrows it.
    for (const QSize size : {help->size(), QSize(520, 600)}) {
        help->resize(size);
        help->show();
        QApplication::processEvents();
        const int room = help->browser()->viewport()->width();
        int drawn = 0;
        for (QTextBlock b = help->browser()->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextCharFormat format = it.fragment().charFormat();
                if (!format.isImageFormat()) continue;
                ++drawn;
                const double width = format.toImageFormat().width();
                EXPECT_GT(width, 0.0) << format.toImageFormat().name().toStdString();
                EXPECT_LE(width, room) << format.toImageFormat().name().toStdString();
            }
        EXPECT_GE(drawn, 8);
    }
    help->close();
}

TEST(Help, ShortcutsListTheWindowsActionsAndTheViewBindings) {
    test::WindowFixture f;
    HelpWindow* help = f.window->showHelp(HelpWindow::Page::Shortcuts);
    const QString text = help->browser()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Open data file")));
    EXPECT_TRUE(text.contains(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    EXPECT_TRUE(text.contains(QStringLiteral("User guide")));
    // Each binding is a row of its own: keys in one cell, what they do in the next (issue 28,
    // point 13: the items ran together).
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line :
         {QStringLiteral("Right drag"), QStringLiteral("window (left-right) and level (up-down)"),
          QStringLiteral("A"), QStringLiteral("automatic window"),
          QStringLiteral("PageUp/PageDown or Ctrl+wheel"), QStringLiteral("previous/next slice")})
        EXPECT_TRUE(lines.contains(line)) << line.toStdString() << " in\n" << text.toStdString();
    help->close();
}

}  // namespace
}  // namespace tomo::ui
