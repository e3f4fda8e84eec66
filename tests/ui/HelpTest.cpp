// Help > User guide renders docs/user-guide.md from the binary (its headings and screenshots
// resolve), and Help > Keyboard and mouse lists the window's real shortcuts and the views'
// bindings.
#include <gtest/gtest.h>

#include <QFile>
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
    help->close();
}

TEST(Help, ShortcutsListTheWindowsActionsAndTheViewBindings) {
    test::WindowFixture f;
    HelpWindow* help = f.window->showHelp(HelpWindow::Page::Shortcuts);
    const QString text = help->browser()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Open data file")));
    EXPECT_TRUE(text.contains(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    EXPECT_TRUE(text.contains(QStringLiteral("User guide")));
    EXPECT_TRUE(text.contains(QStringLiteral("Right drag: window")));
    EXPECT_TRUE(text.contains(QStringLiteral("PageUp/PageDown")));
    help->close();
}

}  // namespace
}  // namespace tomo::ui
