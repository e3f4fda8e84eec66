#pragma once
/// @file HelpWindow.h
/// @brief Help > User guide (F1) and Help > Keyboard and mouse: docs/user-guide.md rendered
/// inside the application (Qt's Markdown, screenshots included, from the binary's resources,
/// qrc:/help/), and a table of the keyboard shortcuts and mouse bindings built from the
/// window's own actions and the slice views' bindings, so it cannot drift from them.
///
/// Threading: GUI thread only.

#include <QDialog>
#include <QList>

class QAction;
class QTextBrowser;

namespace tomo::ui {

/// The keyboard and mouse table (HTML) of @p actions (those with a shortcut) and the slice
/// views' bindings.
QString shortcutsHtml(const QList<QAction*>& actions);

class HelpWindow : public QDialog {
    Q_OBJECT

  public:
    enum class Page { UserGuide, Shortcuts };
    /// @p actions: the window's actions listed on the shortcuts page.
    HelpWindow(Page page, const QList<QAction*>& actions, QWidget* parent = nullptr);

    QTextBrowser* browser() const { return m_browser; }

  private:
    QTextBrowser* m_browser = nullptr;
};

}  // namespace tomo::ui
