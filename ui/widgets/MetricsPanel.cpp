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
    QString line = QStringLiteral("FBP %1, %2 %3: %4")
                       .arg(QString::fromStdString(outcome.variant),
                            QString::fromLatin1(filterWindowName(options.filter.window)))
                       .arg(options.filter.cutoff, 0, 'f', 2)
                       .arg(seconds(outcome.timings.total));
    if (outcome.hasMetrics)
        line += QStringLiteral("   RMSE %1   PSNR %2 dB   SSIM %3")
                    .arg(outcome.metrics.rmse, 0, 'g', 4)
                    .arg(outcome.metrics.psnr, 0, 'f', 2)
                    .arg(outcome.metrics.ssim, 0, 'f', 4);
    return line;
}

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
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

void MetricsPanel::showOutcome(const app::ReconOutcome& outcome) {
    if (outcome.hasMetrics) {
        m_rmse->setText(QString::number(outcome.metrics.rmse, 'g', 4));
        m_psnr->setText(QStringLiteral("%1 dB").arg(outcome.metrics.psnr, 0, 'f', 2));
        m_ssim->setText(QString::number(outcome.metrics.ssim, 'f', 4));
        m_maxError->setText(QString::number(outcome.metrics.maxAbsError, 'g', 4));
    } else {
        for (QLabel* l : {m_rmse, m_psnr, m_ssim, m_maxError})
            l->setText(tr("no ground truth"));
    }
    m_filterTime->setText(seconds(outcome.timings.filtering));
    m_backProjectTime->setText(seconds(outcome.timings.backProjection));
    m_totalTime->setText(seconds(outcome.timings.total));
    m_variant->setText(QString::fromStdString(outcome.variant));
}

void MetricsPanel::clear() {
    for (QLabel* l : {m_rmse, m_psnr, m_ssim, m_maxError, m_filterTime, m_backProjectTime,
                      m_totalTime, m_variant})
        l->setText(kDash);
}

}  // namespace tomo::ui
