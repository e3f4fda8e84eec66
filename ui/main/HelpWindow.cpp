#include "ui/main/HelpWindow.h"

#include <QAction>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/views/SliceView.h"

namespace tomo::ui {

QString shortcutsHtml(const QList<QAction*>& actions) {
    QString html =
        QStringLiteral("<h2>%1</h2><table cellpadding=4>").arg(HelpWindow::tr("Menu shortcuts"));
    for (const QAction* action : actions) {
        if (action->shortcut().isEmpty()) continue;
        QString name = action->text();
        name.remove(QLatin1Char('&'));
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                         name.toHtmlEscaped());
    }
    html += QStringLiteral("</table><h2>%1</h2><p>").arg(HelpWindow::tr("In every image view"));
    html += SliceView::bindingsHelp().toHtmlEscaped().replace(QLatin1Char('\n'),
                                                              QStringLiteral("<br>"));
    html += QStringLiteral("</p><p>%1</p>")
                .arg(HelpWindow::tr("The window/level bar under the reconstruction: click or "
                                    "drag on the histogram to move the nearer edge, type the "
                                    "black and white values, or pick a preset."));
    html += QStringLiteral("<h2>%1</h2><p>%2</p>")
                .arg(HelpWindow::tr("Teaching tab"),
                     HelpWindow::tr("Space: play or pause the back-projection and ART "
                                    "animation"));
    return html;
}

HelpWindow::HelpWindow(Page page, const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent) {
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("helpBrowser"));
    m_browser->setOpenExternalLinks(true);
    if (page == Page::UserGuide) {
        setWindowTitle(tr("TomoStation user guide"));
        m_browser->setSource(QUrl(QStringLiteral("qrc:/help/user-guide.md")),
                             QTextDocument::MarkdownResource);
    } else {
        setWindowTitle(tr("Keyboard and mouse"));
        m_browser->setHtml(shortcutsHtml(actions));
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    resize(page == Page::UserGuide ? QSize(900, 700) : QSize(560, 520));
}

}  // namespace tomo::ui
