#include "ui/widgets/ReconParamsPanel.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include "app/Backends.h"
#include "app/Selection.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/projectors/JosephTranspose.h"
#include "ui/widgets/VariantLabel.h"

namespace tomo::ui {

namespace {
Interpolation interpolationAt(const QComboBox* box) {
    return box->currentData().toString() == QStringLiteral("nearest") ? Interpolation::Nearest
                                                                      : Interpolation::Linear;
}

/// FBP's `projector` parameter in the schema (its choices and description: one source).
ParameterSpec fbpProjectorSpec() {
    for (const AlgorithmSpec& spec : algorithmSpecs())
        if (spec.id == "fbp")
            for (const ParameterSpec& p : spec.parameters)
                if (p.name == "projector") return p;
    return {};
}

/// What a user reads in the projector box for a schema choice.
QString projectorLabel(const std::string& choice) {
    if (choice == "pixel") return QObject::tr("pixel-driven (fastest, every backend)");
    if (choice == "joseph") return QObject::tr("Joseph transpose (as ASTRA's CPU FBP)");
    return QString::fromStdString(choice);
}
}  // namespace

ReconParamsPanel::ReconParamsPanel(const BackProjectorRegistry& registry, QWidget* parent)
    : QWidget(parent), m_registry(registry) {
    m_filter = new QComboBox(this);
    m_filter->setObjectName(QStringLiteral("fbpFilter"));
    for (const char* name : {"ramp", "shepp-logan", "cosine", "hamming", "hann"})
        m_filter->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    m_filter->setToolTip(tr("Apodisation window of the ramp filter"));

    m_cutoff = new QDoubleSpinBox(this);
    m_cutoff->setObjectName(QStringLiteral("fbpCutoff"));
    m_cutoff->setRange(0.05, 1.0);
    m_cutoff->setSingleStep(0.05);
    m_cutoff->setDecimals(2);
    m_cutoff->setValue(1.0);
    m_cutoff->setToolTip(tr("Filter cutoff as a fraction of the Nyquist frequency"));

    // FBP's projector parameter (the schema's choices and text): "joseph" reproduces ASTRA.
    const ParameterSpec projector = fbpProjectorSpec();
    m_projector = new QComboBox(this);
    m_projector->setObjectName(QStringLiteral("fbpProjector"));
    for (const std::string& choice : projector.choices)
        m_projector->addItem(projectorLabel(choice), QString::fromStdString(choice));
    m_projector->setCurrentIndex(
        std::max(0, m_projector->findData(QString::fromStdString(projector.defaultValue))));
    m_projector->setToolTip(
        tr("Which back-projection FBP uses (tomo recon --param projector=NAME, "
           "tomostation.fbp(..., projector=NAME)). %1 Choose joseph to reproduce a script "
           "written for ASTRA (FBP with its 'linear' projector): the interpolation and "
           "back-projector variant then do not apply.")
            .arg(QString::fromStdString(projector.description)));

    m_interpolation = new QComboBox(this);
    m_interpolation->addItem(tr("linear"), QStringLiteral("linear"));
    m_interpolation->addItem(tr("nearest"), QStringLiteral("nearest"));
    m_interpolation->setToolTip(tr("Detector interpolation of the back-projector"));

    m_variant = new QComboBox(this);
    m_variant->setObjectName(QStringLiteral("backProjector"));
    // Long variant descriptions must not widen the dock: the popup shows them in full.
    m_variant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_variant->setMinimumContentsLength(16);
    m_variant->setToolTip(tr("Back-projector variant (registry id)"));

    m_form = new QFormLayout;
    m_form->addRow(tr("Filter"), m_filter);
    m_form->addRow(tr("Cutoff"), m_cutoff);
    m_form->addRow(tr("Projector"), m_projector);
    m_form->addRow(tr("Interpolation"), m_interpolation);
    m_form->addRow(tr("Back-projector"), m_variant);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_form);

    connect(m_interpolation, &QComboBox::currentIndexChanged, this,
            &ReconParamsPanel::refillVariants);
    connect(m_filter, &QComboBox::currentIndexChanged, this, &ReconParamsPanel::optionsChanged);
    connect(m_cutoff, &QDoubleSpinBox::valueChanged, this, &ReconParamsPanel::optionsChanged);
    connect(m_variant, &QComboBox::currentIndexChanged, this, &ReconParamsPanel::optionsChanged);
    connect(m_projector, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit optionsChanged();
    });
    // The model's and tomo tune's speeds of every variant on its backend's device.
    for (const char* backend : {"cpu", "opencl", "cuda"}) {
        if (m_registry.list(backend).empty()) continue;
        Result<DeviceInfo> device = app::primaryDevice(backend);
        if (!device) continue;
        for (app::VariantSpeed& speed : app::variantSpeeds(*device, m_registry))
            m_speeds[speed.id] = std::move(speed);
    }
    refillVariants();
    setReady(false);
}

void ReconParamsPanel::setFilterOnly(bool on) {
    for (QWidget* w : {static_cast<QWidget*>(m_projector), static_cast<QWidget*>(m_interpolation),
                       static_cast<QWidget*>(m_variant)}) {
        w->setVisible(!on);
        if (QWidget* label = m_form->labelForField(w)) label->setVisible(!on);
    }
}

QString ReconParamsPanel::speedText(const std::string& id) const {
    auto it = m_speeds.find(id);
    if (it == m_speeds.end() || !it->second.hasModel) return {};
    const app::VariantSpeed& s = it->second;
    return s.measuredGups > 0 ? tr("model %1 GU/s, measured %2 GU/s")
                                    .arg(s.predictedGups, 0, 'f', 1)
                                    .arg(s.measuredGups, 0, 'f', 1)
                              : tr("model %1 GU/s, not measured").arg(s.predictedGups, 0, 'f', 1);
}

QString ReconParamsPanel::automaticReason(Interpolation interp) const {
    const std::string backend = app::autoBackend(m_registry);
    return app::cachedVariant(m_registry, backend, interp, JobShape{})
               ? tr("measured fastest on this device by tomo tune")
               : tr("the performance model's choice (run tomo tune to measure)");
}

void ReconParamsPanel::refillVariants() {
    Interpolation interp = interpolationAt(m_interpolation);
    m_variant->clear();
    // First the automatic choice (the engine's per job shape), then every variant of the
    // interpolation with what it is.
    const std::string preferred = app::defaultVariant(m_registry, "auto", interp);
    if (!preferred.empty()) {
        const QString speed = speedText(preferred);
        m_variant->addItem(tr("Automatic (%1)").arg(QString::fromStdString(preferred)) +
                               (speed.isEmpty() ? QString() : QStringLiteral("; ") + speed),
                           QString());
        m_variant->setItemData(0, automaticReason(interp), Qt::ToolTipRole);
    }
    for (const BackProjectorInfo& info : m_registry.list()) {
        if (info.interpolation != interp) continue;
        const QString speed = speedText(info.id);
        m_variant->addItem(
            variantLabel(info) + (speed.isEmpty() ? QString() : QStringLiteral("; ") + speed),
            QString::fromStdString(info.id));
        m_variant->setItemData(
            m_variant->count() - 1,
            variantTooltip(info) + (speed.isEmpty()
                                        ? QString()
                                        : tr("\nSpeed in GU/s (giga-updates: image pixels "
                                             "times projections per second); model: the "
                                             "performance model with this device's traits; "
                                             "measured: tomo tune.")),
            Qt::ToolTipRole);
    }
    // The open list is as wide as its longest entry, so that every entry reads whole.
    m_variant->view()->setMinimumWidth(m_variant->view()->sizeHintForColumn(0) + 24);
    m_variant->setCurrentIndex(0);
    setReady(m_ready);
}

FbpOptions ReconParamsPanel::options() const {
    FbpOptions options;
    auto window = parseFilterWindow(m_filter->currentData().toString().toStdString());
    if (window) options.filter.window = *window;
    options.filter.cutoff = m_cutoff->value();
    return options;
}

std::string ReconParamsPanel::variantId() const {
    if (projector() == "joseph") return {};
    return m_variant->currentData().toString().toStdString();
}

std::string ReconParamsPanel::projector() const {
    return m_projector->currentData().toString().toStdString();
}

bool ReconParamsPanel::setProjector(const std::string& name) {
    const int index = m_projector->findData(QString::fromStdString(name));
    if (index < 0) return false;
    m_projector->setCurrentIndex(index);
    return true;
}

QString ReconParamsPanel::variantText() const {
    return m_variant->currentText();
}

bool ReconParamsPanel::setFilter(const QString& name) {
    int index = m_filter->findData(name);
    if (index < 0) return false;
    m_filter->setCurrentIndex(index);
    return true;
}

QString ReconParamsPanel::filterName() const {
    return m_filter->currentData().toString();
}

bool ReconParamsPanel::setVariant(const std::string& id) {
    if (id == kJosephTransposeId) return setProjector("joseph");
    for (const BackProjectorInfo& info : m_registry.list()) {
        if (info.id != id) continue;
        int interp =
            m_interpolation->findData(QString::fromLatin1(interpolationName(info.interpolation)));
        if (interp >= 0) m_interpolation->setCurrentIndex(interp);
        int index = m_variant->findData(QString::fromStdString(id));
        if (index < 0) return false;
        m_variant->setCurrentIndex(index);
        return setProjector("pixel");
    }
    return false;
}

void ReconParamsPanel::setCutoff(double cutoff) {
    m_cutoff->setValue(cutoff);
}

void ReconParamsPanel::setReady(bool ready) {
    m_ready = ready;
    for (QWidget* w : {static_cast<QWidget*>(m_filter), static_cast<QWidget*>(m_cutoff),
                       static_cast<QWidget*>(m_projector)})
        w->setEnabled(ready);
    updateEnabled();
}

void ReconParamsPanel::updateEnabled() {
    const bool pixel = projector() != "joseph";
    for (QWidget* w : {static_cast<QWidget*>(m_interpolation), static_cast<QWidget*>(m_variant)})
        w->setEnabled(m_ready && pixel);
}

}  // namespace tomo::ui
