// Menus a keyboard user can drive (issue 28, found retelling the tuner's journey): Alt+F then R
// went to "Open recent", not to "Open reference image", whose letter it shared (and "Open
// session" shared S with "Save reconstruction"), so the typed path went elsewhere. Every letter
// underlined in the menu bar, and in each of its menus, picks one entry.
#include <gtest/gtest.h>

#include <QAction>
#include <QMap>
#include <QMenu>
#include <QMenuBar>

#include "tests/ui/UiTestSupport.h"

namespace tomo::ui {
namespace {

/// The letter after a single '&' in @p text (lower case), or a null QChar.
QChar mnemonicOf(const QString& text) {
    for (int i = 0; i + 1 < text.size(); ++i)
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] == QLatin1Char('&')) {
                ++i;
                continue;
            }
            return text[i + 1].toLower();
        }
    return {};
}

/// The entries of @p actions that share an underlined letter, as "letter: a | b" lines.
QStringList clashes(const QList<QAction*>& actions) {
    QMap<QChar, QStringList> byLetter;
    for (const QAction* a : actions)
        if (!a->isSeparator())
            if (const QChar c = mnemonicOf(a->text()); !c.isNull()) byLetter[c] << a->text();
    QStringList out;
    for (auto it = byLetter.cbegin(); it != byLetter.cend(); ++it)
        if (it.value().size() > 1)
            out << QString(it.key()) + QStringLiteral(": ") + it.value().join(" | ");
    return out;
}

TEST(MenuKeys, EachUnderlinedLetterPicksOneEntry) {
    test::WindowFixture f;
    QMenuBar* bar = f.window->menuBar();
    ASSERT_NE(bar, nullptr);
    EXPECT_TRUE(clashes(bar->actions()).isEmpty())
        << clashes(bar->actions()).join("; ").toStdString();
    int menus = 0;
    for (QAction* top : bar->actions()) {
        QMenu* menu = top->menu();
        if (!menu) continue;
        ++menus;
        const QStringList c = clashes(menu->actions());
        EXPECT_TRUE(c.isEmpty()) << top->text().toStdString() << ": " << c.join("; ").toStdString();
    }
    EXPECT_GE(menus, 4);  // File, View, Reconstruction, Help
}

}  // namespace
}  // namespace tomo::ui
