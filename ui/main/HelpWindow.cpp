#include "ui/main/HelpWindow.h"

#include <algorithm>

#include <QAction>
#include <QImage>
#include <QPixmap>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/views/SliceView.h"

namespace tomo::ui {

namespace {

QString row(const QString& keys, const QString& action) {
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
        .arg(keys.toHtmlEscaped(), action.toHtmlEscaped());
}

/// The size of an image resource as a document holds it (an image, a pixmap or file bytes).
QSize imageSize(const QVariant& resource) {
    if (resource.typeId() == QMetaType::QImage) return resource.value<QImage>().size();
    if (resource.typeId() == QMetaType::QPixmap) return resource.value<QPixmap>().size();
    return QImage::fromData(resource.toByteArray()).size();
}

/// A browser that shows each image of its document at most as wide as its viewport (scaled,
/// keeping its aspect), so that the guide's screenshots never overflow the window.
class FittingBrowser : public QTextBrowser {
  public:
    using QTextBrowser::QTextBrowser;

    void fitImages() {
        const int room = std::max(120, viewport()->width() - 40);
        QTextCursor cursor(document());
        for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (!fragment.charFormat().isImageFormat()) continue;
                QTextImageFormat image = fragment.charFormat().toImageFormat();
                const QSize natural = imageSize(
                    document()->resource(QTextDocument::ImageResource, QUrl(image.name())));
                if (natural.isEmpty()) continue;
                const int width = std::min(natural.width(), room);
                if (static_cast<int>(image.width()) == width) continue;
                image.setWidth(width);
                image.setHeight(natural.height() * width / static_cast<double>(natural.width()));
                cursor.setPosition(fragment.position());
                cursor.setPosition(fragment.position() + fragment.length(),
                                   QTextCursor::KeepAnchor);
                cursor.setCharFormat(image);
            }
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QTextBrowser::resizeEvent(event);
        fitImages();
    }
};

QString section(const QString& title) {
    return QStringLiteral("<h2>%1</h2><table cellpadding=4>").arg(title.toHtmlEscaped());
}

}  // namespace

QString shortcutsHtml(const QList<QAction*>& actions) {
    // One row per binding: a table cell each, so no two items run together.
    QString html = section(HelpWindow::tr("Menu shortcuts"));
    for (const QAction* action : actions) {
        if (action->shortcut().isEmpty()) continue;
        QString name = action->text();
        name.remove(QLatin1Char('&'));
        html += row(action->shortcut().toString(QKeySequence::NativeText), name);
    }
    html += QStringLiteral("</table>") + section(HelpWindow::tr("In every image view"));
    for (const auto& [keys, action] : SliceView::bindings())
        html += row(keys, action);
    html += QStringLiteral("</table>") + section(HelpWindow::tr("Window/level bar"));
    html += row(HelpWindow::tr("Click or drag on the histogram"),
                HelpWindow::tr("move the nearer edge of the window"));
    html += row(HelpWindow::tr("Black and white fields"), HelpWindow::tr("type the values"));
    html += row(HelpWindow::tr("Preset"), HelpWindow::tr("percentile or full-range window"));
    html += QStringLiteral("</table>") + section(HelpWindow::tr("Teaching tab"));
    html += row(HelpWindow::tr("Space"),
                HelpWindow::tr("play or pause the back-projection and ART animation"));
    return html + QStringLiteral("</table>");
}

HelpWindow::HelpWindow(Page page, const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent) {
    auto* browser = new FittingBrowser(this);
    m_browser = browser;
    m_browser->setObjectName(QStringLiteral("helpBrowser"));
    m_browser->setOpenExternalLinks(true);
    if (page == Page::UserGuide) {
        setWindowTitle(tr("TomoStation user guide"));
        m_browser->setSource(QUrl(QStringLiteral("qrc:/help/user-guide.md")),
                             QTextDocument::MarkdownResource);
        browser->fitImages();
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
