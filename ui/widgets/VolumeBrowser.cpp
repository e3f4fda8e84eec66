#include "ui/widgets/VolumeBrowser.h"

#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include "ui/views/ImageView.h"
#include "ui/widgets/WindowLevelBar.h"

namespace tomo::ui {

namespace {

QString provenanceText(const std::map<std::string, std::string>& provenance) {
    if (provenance.empty()) return VolumeBrowser::tr("No provenance stored in the file.");
    QStringList lines;
    for (const auto& [key, value] : provenance)
        lines << QStringLiteral("<b>%1</b>: %2")
                     .arg(QString::fromStdString(key).toHtmlEscaped(),
                          QString::fromStdString(value).toHtmlEscaped());
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace

VolumeBrowser::VolumeBrowser(app::PlaneCache cache, const QString& name,
                             const std::map<std::string, std::string>& provenance, QWidget* parent)
    : QWidget(parent), m_cache(std::move(cache)), m_name(name) {
    const auto [planes, rows, cols] = m_cache.shape();
    setWindowTitle(
        tr("%1 (%2 x %3 x %4, read by slice)").arg(name).arg(cols).arg(rows).arg(planes));
    m_view = new ImageView(this);
    m_view->setObjectName(QStringLiteral("volumeBrowserView"));
    m_view->setTitle(name);
    m_window = new WindowLevelBar(this);
    m_window->attach(m_view);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("volumeBrowserSlice"));
    m_slider->setRange(0, static_cast<int>(planes) - 1);
    m_slider->setPageStep(1);  // PageUp/PageDown: one slice, as on the image
    m_slider->setToolTip(
        tr("Slice (z); each slice is read from the file when shown. PageUp/PageDown or "
           "Ctrl+wheel on the image"));
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("volumeBrowserSliceLabel"));
    m_value = new QLabel(this);
    m_value->setObjectName(QStringLiteral("volumeBrowserValue"));
    m_provenance = new QLabel(provenanceText(provenance), this);
    m_provenance->setObjectName(QStringLiteral("volumeBrowserProvenance"));
    m_provenance->setWordWrap(true);
    m_provenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_value);
    layout->addWidget(m_window);
    layout->addWidget(m_slider);
    layout->addWidget(m_label);
    layout->addWidget(m_provenance);
    connect(m_slider, &QSlider::valueChanged, this, [this](int z) { showSlice(z); });
    connect(m_view, &SliceView::sliceStepRequested, this,
            [this](int delta) { showSlice(slice() + delta); });
    connect(m_view, &SliceView::pixelHovered, m_value, &QLabel::setText);
    showSlice(static_cast<int>(planes / 2));
}

bool VolumeBrowser::showSlice(int z) {
    const int last = static_cast<int>(m_cache.shape()[0]) - 1;
    z = std::clamp(z, 0, last);
    if (m_slider->value() != z) {
        m_slider->setValue(z);  // shows it through valueChanged
        return m_label->property("ok").toBool();
    }
    auto plane = m_cache.plane(static_cast<std::size_t>(z));
    if (!plane) {
        m_label->setText(
            tr("slice %1: %2").arg(z + 1).arg(QString::fromStdString(plane.status().message())));
        m_label->setProperty("ok", false);
        return false;
    }
    m_view->setImage((*plane)->view(), !std::exchange(m_windowSet, true));
    m_view->setCaption(tr("slice %1 / %2").arg(z + 1).arg(last + 1));
    m_label->setText(tr("slice %1 of %2 — %3 slice(s) read from the file, %4 held")
                         .arg(z + 1)
                         .arg(last + 1)
                         .arg(m_cache.planesRead())
                         .arg(m_cache.planesHeld()));
    m_label->setProperty("ok", true);
    return true;
}

int VolumeBrowser::slice() const {
    return m_slider->value();
}

}  // namespace tomo::ui
