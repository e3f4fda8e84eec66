#include "ui/panels/RingPreviewWindow.h"

#include <QGridLayout>
#include <QLabel>

#include "ui/main/Session.h"
#include "ui/views/ColorMap.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {

RingPreviewWindow::RingPreviewWindow(Session& session, QWidget* parent)
    : QDialog(parent), m_session(session) {
    setObjectName(QStringLiteral("ringPreviewWindow"));
    setWindowTitle(tr("Ring filter: before and after"));
    const QString titles[6] = {
        tr("Sinogram before"), tr("Sinogram after"), tr("Sinogram: after - before"),
        tr("Slice before"),    tr("Slice after"),    tr("Slice: after - before")};
    auto* grid = new QGridLayout(this);
    for (int i = 0; i < 6; ++i) {
        auto* heading = new QLabel(titles[i], this);
        m_views[i] = new ImageView(this);
        m_views[i]->setTitle(titles[i]);
        m_views[i]->setMinimumSize(220, 200);
        grid->addWidget(heading, 2 * (i / 3), i % 3);
        grid->addWidget(m_views[i], 2 * (i / 3) + 1, i % 3);
    }
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("ringPreviewSummary"));
    m_summary->setWordWrap(true);
    grid->addWidget(m_summary, 4, 0, 1, 3);
    grid->setRowStretch(1, 1);
    grid->setRowStretch(3, 1);
    synchroniseFraming({m_views[0], m_views[1], m_views[2]});
    synchroniseFraming({m_views[3], m_views[4], m_views[5]});
    resize(900, 640);
}

void RingPreviewWindow::clearAll(const QString& message) {
    for (ImageView* v : m_views)
        v->clear(message);
    m_summary->setText(message);
}

void RingPreviewWindow::showPreview(int slice, const PreprocessOptions& options) {
    auto data = m_session.dataset();
    if (!data) return clearAll(tr("No data."));
    auto preview = app::ringPreview(m_session.engine(), *data, slice, options, ExecContext{});
    if (!preview) return clearAll(QString::fromStdString(preview.status().message()));
    showImages(*preview);
    const QString filter = options.rings == RingMethod::None      ? tr("no ring filter chosen")
                           : options.rings == RingMethod::Sorting ? tr("sorting (Vo)")
                                                                  : tr("Fourier-wavelet");
    m_summary->setText(tr("Slice %1, %2: the filter changes %5 of %6 detector columns (those "
                          "it finds to be stripes) by up to %3 (line integral). Both slices are "
                          "FBP at the dataset's centre %4 px. Wheel or +/- zooms a row's three "
                          "panes together; drag pans them.")
                           .arg(slice + 1)
                           .arg(filter)
                           .arg(preview->largestChange, 0, 'g', 3)
                           .arg(data->geometry.centerOfRotation(), 0, 'f', 2)
                           .arg(preview->changedColumns)
                           .arg(preview->sinogramDifference.cols));
}

void RingPreviewWindow::showImages(const app::RingPreview& p) {
    const app::SliceImage* images[6] = {&p.sinogramBefore, &p.sinogramAfter, &p.sinogramDifference,
                                        &p.sliceBefore,    &p.sliceAfter,    &p.sliceDifference};
    for (int row = 0; row < 2; ++row) {
        ImageView* before = m_views[3 * row];
        before->setImage(images[3 * row]->view());
        m_views[3 * row + 1]->setImage(images[3 * row + 1]->view(), false);
        m_views[3 * row + 1]->setWindowLevel(before->windowLevel());
        const app::SliceImage& difference = *images[3 * row + 2];
        m_views[3 * row + 2]->setImage(difference.view(), false);
        m_views[3 * row + 2]->setWindowLevel(symmetricWindow(difference.values, 99.5));
    }
}

}  // namespace tomo::ui
