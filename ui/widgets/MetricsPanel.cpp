#include "ui/widgets/MetricsPanel.h"

#include <QFormLayout>
#include <QLabel>

namespace tomo::ui {

namespace {
QString seconds(double s) {
    return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
}
const QString kDash = QStringLiteral("\u2013");
}  // namespace

QString reconSummary(const app::ReconOutcome& outcome, const FbpOptions& options) {
    QString line =
        QStringLiteral("%1 %2, %3 %4: %5")
            .arg(outcome.algorithm == "gridrec" ? QStringLiteral("Gridrec") : QStringLiteral("FBP"),
                 QString::fromStdString(outcome.variant),
                 QString::fromLatin1(filterWindowName(options.filter.window)))
            .arg(options.filter.cutoff, 0, 'f', 2)
            .arg(seconds(outcome.timings.total));
    if (outcome.hasMetrics)
        line +=
            QStringLiteral("   %4RMSE %1   PSNR %2 dB   SSIM %3")
                .arg(outcome.metrics.rmse, 0, 'g', 4)
                .arg(outcome.metrics.psnr, 0, 'f', 2)
                .arg(outcome.metrics.ssim, 0, 'f', 4)
                .arg(outcome.metricsOver.empty() ? QString() : QStringLiteral("field of view: "));
    return line;
}

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_shown = addValue(tr("Shown"), "shownValue");
    m_over = addValue(tr("Measured over"), "overValue");
    m_over->setWordWrap(true);
    m_over->setToolTip(
        tr("The error metrics count the pixels of the field of view only: the disc about the "
           "rotation axis that every projection covers. Outside it (shaded on the images) the "
           "data do not determine the image."));
    m_rmse = addValue(tr("RMSE"), "rmseValue");
    m_psnr = addValue(tr("PSNR"), "psnrValue");
    m_ssim = addValue(tr("SSIM"), "ssimValue");
    m_maxError = addValue(tr("Max |error|"), "maxErrorValue");
    m_filterTime = addValue(tr("Filtering"), "filterTimeValue");
    m_backProjectTime = addValue(tr("Back-projection"), "backProjectTimeValue");
    m_totalTime = addValue(tr("Total"), "totalTimeValue");
    m_variant = addValue(tr("Variant"), "variantValue");
    clear();
}

QLabel* MetricsPanel::addValue(const QString& label, const char* objectName) {
    auto* value = new QLabel(this);
    value->setObjectName(QString::fromLatin1(objectName));
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->addRow(label, value);
    return value;
}

void MetricsPanel::showMetrics(const std::optional<ImageMetrics>& metrics) {
    if (metrics) {
        m_rmse->setText(QString::number(metrics->rmse, 'g', 4));
        m_psnr->setText(QStringLiteral("%1 dB").arg(metrics->psnr, 0, 'f', 2));
        m_ssim->setText(QString::number(metrics->ssim, 'f', 4));
        m_maxError->setText(QString::number(metrics->maxAbsError, 'g', 4));
    } else {
        for (QLabel* l : {m_rmse, m_psnr, m_ssim, m_maxError})
            l->setText(tr("no ground truth"));
    }
}

void MetricsPanel::showOutcome(const app::ReconOutcome& outcome, const QString& shown) {
    m_shown->setText(shown.isEmpty() ? tr("the result (slice 1)") : shown);
    showMetrics(outcome.hasMetrics ? std::optional(outcome.metrics) : std::nullopt);
    m_over->setText(!outcome.hasMetrics           ? kDash
                    : outcome.metricsOver.empty() ? tr("the whole image")
                                                  : QString::fromStdString(outcome.metricsOver));
    // Iterative methods have no separate filtering and back-projection stages.
    const bool stages = outcome.timings.filtering > 0 || outcome.timings.backProjection > 0;
    m_filterTime->setText(stages ? seconds(outcome.timings.filtering) : tr("n/a (iterative)"));
    m_backProjectTime->setText(stages ? seconds(outcome.timings.backProjection)
                                      : tr("n/a (iterative)"));
    m_totalTime->setText(seconds(outcome.timings.total));
    m_variant->setText(QString::fromStdString(outcome.variant));
}

void MetricsPanel::showResultSlice(int slice, const std::optional<ImageMetrics>& metrics) {
    const bool outOfDate = m_shown->text().contains(tr("out of date"));
    m_shown->setText(outOfDate
                         ? tr("the result (slice %1, out of date: settings changed)").arg(slice + 1)
                         : tr("the result (slice %1)").arg(slice + 1));
    showMetrics(metrics);
}

void MetricsPanel::markOutOfDate() {
    const QString shown = m_shown->text();
    if (shown.startsWith(tr("the result")) && !shown.contains(tr("out of date")))
        m_shown->setText(shown.left(shown.size() - 1) + tr(", out of date: settings changed)"));
}

void MetricsPanel::showImage(const QString& shown, const std::optional<ImageMetrics>& metrics,
                             const QString& over) {
    m_shown->setText(shown);
    showMetrics(metrics);
    m_over->setText(!metrics ? kDash : over.isEmpty() ? tr("the whole image") : over);
    for (QLabel* l : {m_filterTime, m_backProjectTime, m_totalTime})
        l->setText(kDash);
}

void MetricsPanel::clear() {
    for (QLabel* l : {m_shown, m_over, m_rmse, m_psnr, m_ssim, m_maxError, m_filterTime,
                      m_backProjectTime, m_totalTime, m_variant})
        l->setText(kDash);
}

}  // namespace tomo::ui
