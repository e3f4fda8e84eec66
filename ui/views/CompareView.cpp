#include "ui/views/CompareView.h"

#include <cmath>

#include <QGridLayout>
#include <QLabel>
#include <QPainter>

#include "ui/views/SliceView.h"

namespace tomo::ui {

CompareView::CompareView(SliceBackend backend, QWidget* parent) : QWidget(parent) {
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    for (std::size_t i = 0; i < 3; ++i) {
        m_panes[i] = createSliceView(backend, this);
        layout->addWidget(m_panes[i], 0, static_cast<int>(i));
    }
    m_metricsLabel = new QLabel(tr("nothing to compare"));
    m_metricsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_metricsLabel, 1, 0, 1, 3);
    layout->setRowStretch(0, 1);
    for (std::size_t i = 0; i < 2; ++i) {
        SliceView* other = m_panes[1 - i];
        connect(m_panes[i], &SliceView::windowLevelChanged, this,
                [this, other](const WindowLevel& wl) {
                    if (m_syncingWindow) return;
                    m_syncingWindow = true;
                    other->setWindowLevel(wl);
                    m_syncingWindow = false;
                });
    }
    clear();
}

void CompareView::clear() {
    m_metrics.reset();
    m_difference.clear();
    for (SliceView* v : m_panes)
        v->clear(tr("no image"));
    m_metricsLabel->setText(tr("nothing to compare"));
}

Status CompareView::setImages(View2<const float> a, View2<const float> b, const QString& nameA,
                              const QString& nameB) {
    m_panes[0]->setTitle(nameA);
    m_panes[1]->setTitle(nameB);
    m_panes[2]->setTitle(nameA + QStringLiteral(" - ") + nameB);
    m_panes[0]->setCaption(nameA);
    m_panes[1]->setCaption(nameB);
    m_panes[2]->setCaption(nameA + QStringLiteral(" - ") + nameB);
    m_panes[0]->setImage(a, true);
    m_panes[1]->setImage(b, false);
    m_panes[1]->setWindowLevel(m_panes[0]->windowLevel());
    m_metrics.reset();
    m_difference.clear();
    auto metrics = compareImages(a, b);
    if (!metrics) {
        m_panes[2]->clear(QString::fromStdString(metrics.status().message()));
        m_metricsLabel->setText(
            tr("not compared: %1").arg(QString::fromStdString(metrics.status().message())));
        return metrics.status();
    }
    m_metrics = *metrics;
    m_difference.resize(a.rows() * a.cols());
    std::vector<float> magnitude(m_difference.size());
    for (std::size_t r = 0; r < a.rows(); ++r)
        for (std::size_t c = 0; c < a.cols(); ++c) {
            float d = a(r, c) - b(r, c);
            m_difference[r * a.cols() + c] = d;
            magnitude[r * a.cols() + c] = std::abs(d);
        }
    m_panes[2]->setImage(View2<const float>(m_difference.data(), a.rows(), a.cols(), a.cols()),
                         false);
    double bound = percentileWindow(magnitude, 99.5, 99.5).level;
    m_panes[2]->setWindowLevel({2.0 * std::max(bound, 1e-12), 0.0});
    m_metricsLabel->setText(tr("%1 against %2:  RMSE %3   SSIM %4   PSNR %5 dB   max |error| %6")
                                .arg(nameA, nameB)
                                .arg(m_metrics->rmse, 0, 'g', 5)
                                .arg(m_metrics->ssim, 0, 'f', 4)
                                .arg(m_metrics->psnr, 0, 'f', 2)
                                .arg(m_metrics->maxAbsError, 0, 'g', 5));
    return Status::ok();
}

QImage CompareView::renderToImage(QSize size) {
    QImage out(size, QImage::Format_RGB32);
    out.fill(QColor(16, 16, 16));
    QPainter painter(&out);
    const int textHeight = 24;
    const int paneWidth = (size.width() - 4) / 3;
    const int paneHeight = std::max(1, size.height() - textHeight);
    for (std::size_t i = 0; i < 3; ++i)
        painter.drawImage(QPoint(static_cast<int>(i) * (paneWidth + 2), 0),
                          m_panes[i]->renderToImage(QSize(paneWidth, paneHeight)));
    painter.setPen(QColor(230, 230, 230));
    painter.drawText(QRect(6, paneHeight, size.width() - 12, textHeight),
                     Qt::AlignVCenter | Qt::AlignLeft, m_metricsLabel->text());
    return out;
}

}  // namespace tomo::ui
