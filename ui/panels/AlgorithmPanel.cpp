#include "ui/panels/AlgorithmPanel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "ui/panels/ParameterForm.h"
#include "ui/session/SessionFile.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {

FormHints formHintsFor(const std::string& algorithm) {
    if (algorithm != "mbir") return {};
    // Sharpness and SNR are what a user tunes (svmbir's interface); the model's exponents,
    // explicit sigmas, the SuperVoxel schedule and GPU-ICD's launch shape are for experts.
    return {
        .advanced = {"method", "sv_side", "batch", "matrix", "p", "q", "T", "sigma_x", "sigma_y",
                     "counts", "simd", "gpu_sv_side", "gpu_batch", "gpu_blocks", "gpu_threads"},
        .sliders = {"sharpness", "snr_db"},
        .live = {"sharpness", "snr_db"}};
}

AlgorithmPanel::AlgorithmPanel(const BackProjectorRegistry& registry, QWidget* parent)
    : QWidget(parent), m_specs(algorithmSpecs()) {
    m_algorithm = new QComboBox(this);
    m_algorithm->setObjectName(QStringLiteral("algorithm"));
    for (const AlgorithmSpec& spec : m_specs)
        m_algorithm->addItem(QString::fromStdString(spec.label), QString::fromStdString(spec.id));
    if (m_algorithm->findData(QStringLiteral("fbp")) < 0)
        m_algorithm->insertItem(0, tr("FBP"), QStringLiteral("fbp"));
    m_description = new QLabel(this);
    m_description->setWordWrap(true);
    m_fbp = new ReconParamsPanel(registry, this);

    auto* iterativePage = new QWidget(this);
    m_form = new ParameterForm(iterativePage);
    connect(m_form, &ParameterForm::valueEdited, this, [this](const QString& name) {
        if (m_form->hints().live.count(name.toStdString())) emit liveParameterEdited(name);
    });
    m_presetButtons = new QWidget(iterativePage);
    auto* presets = new QHBoxLayout(m_presetButtons);
    presets->setContentsMargins(0, 0, 0, 0);
    auto* save = new QPushButton(tr("Save preset..."), m_presetButtons);
    auto* load = new QPushButton(tr("Load preset..."), m_presetButtons);
    auto* reset = new QPushButton(tr("Defaults"), m_presetButtons);
    presets->addWidget(save);
    presets->addWidget(load);
    presets->addWidget(reset);
    connect(reset, &QPushButton::clicked, m_form, &ParameterForm::resetToDefaults);
    connect(save, &QPushButton::clicked, this, [this] {
        QString file = QFileDialog::getSaveFileName(
            this, tr("Save preset"), QString::fromStdString(algorithm()) + ".preset.json",
            tr("Presets (*.json)"));
        if (file.isEmpty()) return;
        Status s = savePreset(file.toStdString());
        if (!s) QMessageBox::warning(this, tr("Save preset"), QString::fromStdString(s.message()));
    });
    connect(load, &QPushButton::clicked, this, [this] {
        QString file =
            QFileDialog::getOpenFileName(this, tr("Load preset"), {}, tr("Presets (*.json)"));
        if (file.isEmpty()) return;
        Status s = loadPreset(file.toStdString());
        if (!s) QMessageBox::warning(this, tr("Load preset"), QString::fromStdString(s.message()));
    });
    // Where the iterative operators run: the SIRT family on a device's locality pair.
    auto* deviceRow = new QWidget(iterativePage);
    auto* deviceLayout = new QHBoxLayout(deviceRow);
    deviceLayout->setContentsMargins(0, 0, 0, 0);
    m_device = new QComboBox(deviceRow);
    m_device->setObjectName(QStringLiteral("iterativeDevice"));
    m_device->addItem(tr("Automatic"), QStringLiteral("auto"));
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    for (const char* backend : {"opencl", "cuda"})
        if (!registry.list(backend).empty())
            m_device->addItem(backend == std::string("cuda") ? tr("CUDA GPU") : tr("OpenCL device"),
                              QString::fromLatin1(backend));
    m_device->setToolTip(
        tr("Where SIRT, OS-SIRT and SART project: a GPU's locality-ordered operator pair or the "
           "CPU. CGLS, TV and MemXCT need the exactly matched pair and run on the CPU."));
    deviceLayout->addWidget(new QLabel(tr("Device"), deviceRow));
    deviceLayout->addWidget(m_device, 1);
    auto* iterativeLayout = new QVBoxLayout(iterativePage);
    iterativeLayout->setContentsMargins(0, 0, 0, 0);
    iterativeLayout->addWidget(m_form);
    iterativeLayout->addWidget(deviceRow);
    iterativeLayout->addWidget(m_presetButtons);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_fbp);
    m_pages->addWidget(iterativePage);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_algorithm);
    layout->addWidget(m_description);
    layout->addWidget(m_pages);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, &AlgorithmPanel::onAlgorithmIndex);
    onAlgorithmIndex(m_algorithm->currentIndex());
}

std::string AlgorithmPanel::backend() const {
    return m_device->currentData().toString().toStdString();
}

bool AlgorithmPanel::setBackend(const std::string& backend) {
    const int index = m_device->findData(QString::fromStdString(backend));
    if (index < 0) return false;
    m_device->setCurrentIndex(index);
    return true;
}

void AlgorithmPanel::onAlgorithmIndex(int index) {
    // Remember what was typed for the algorithm we leave.
    if (!m_current.empty() && m_current != "fbp") m_remembered[m_current] = m_form->values();
    m_current = m_algorithm->itemData(index).toString().toStdString();
    const AlgorithmSpec* spec = nullptr;
    for (const AlgorithmSpec& s : m_specs)
        if (s.id == m_current) spec = &s;
    m_description->setText(spec ? QString::fromStdString(spec->description) : QString());
    m_description->setToolTip(spec ? QString::fromStdString(spec->reference) : QString());
    if (m_coneBeam && m_current == "fbp")
        m_description->setText(
            tr("Feldkamp-Davis-Kress: every projection cosine-weighted and ramp-filtered along "
               "its rows, then back-projected along the cone of rays (the filter below)."));
    if (m_current == "fbp" || !spec) {
        m_pages->setCurrentIndex(0);
    } else {
        m_form->setSpec(*spec, formHintsFor(spec->id));
        auto it = m_remembered.find(m_current);
        if (it != m_remembered.end()) m_form->setValues(it->second);
        m_pages->setCurrentIndex(1);
    }
    // The stack is as tall as its shown page: a hidden page (MBIR's long form) is ignored.
    for (int i = 0; i < m_pages->count(); ++i)
        m_pages->widget(i)->setSizePolicy(
            i == m_pages->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored,
            i == m_pages->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    m_pages->updateGeometry();
    emit algorithmChanged(QString::fromStdString(m_current));
}

std::string AlgorithmPanel::algorithm() const {
    return m_current;
}

bool AlgorithmPanel::setAlgorithm(const std::string& id) {
    int index = m_algorithm->findData(QString::fromStdString(id));
    if (index < 0 || (m_coneBeam && id != "fbp")) return false;
    m_algorithm->setCurrentIndex(index);
    return true;
}

bool AlgorithmPanel::isIterative() const {
    for (const AlgorithmSpec& s : m_specs)
        if (s.id == m_current) return s.iterative;
    return false;
}

std::map<std::string, std::string> AlgorithmPanel::values() const {
    return m_pages->currentIndex() == 1 ? m_form->values() : std::map<std::string, std::string>{};
}

std::map<std::string, std::map<std::string, std::string>> AlgorithmPanel::parameters() const {
    auto all = m_remembered;
    if (m_pages->currentIndex() == 1) all[m_current] = m_form->values();
    return all;
}

app::AnalyticMethod AlgorithmPanel::analyticMethod() const {
    if (m_current == "fbp") {  // FBP's projector parameter, when not the default
        app::AnalyticMethod method;
        if (m_fbp->projector() == "joseph") method.parameters["projector"] = "joseph";
        return method;
    }
    if (m_current != "gridrec") return {};
    return {m_current, m_form->values(), backend()};
}

FbpOptions AlgorithmPanel::analyticOptions() const {
    FbpOptions options = m_fbp->options();
    if (m_current != "gridrec") return options;
    for (const AlgorithmSpec& s : m_specs)  // gridrec's own filter and cutoff, as validated
        if (s.id == m_current)
            if (auto values = ParameterValues::resolve(s, m_form->values()); values.isOk()) {
                if (auto w = parseFilterWindow(values->text("filter")); w.isOk())
                    options.filter.window = *w;
                options.filter.cutoff = values->real("cutoff");
            }
    return options;
}

std::vector<std::string> AlgorithmPanel::setParameters(
    const std::map<std::string, std::map<std::string, std::string>>& parameters) {
    std::vector<std::string> rejected;
    for (const auto& [id, values] : parameters) {
        const AlgorithmSpec* spec = nullptr;
        for (const AlgorithmSpec& s : m_specs)
            if (s.id == id) spec = &s;
        if (!spec) {
            rejected.push_back(id);
            continue;
        }
        // Validate through a scratch form so that only values the editors accept are kept.
        ParameterForm scratch;
        scratch.setSpec(*spec);
        for (const std::string& name : scratch.setValues(values))
            rejected.push_back(id + "." + name);
        m_remembered[id] = scratch.values();
        if (id == m_current) m_form->setValues(m_remembered[id]);
    }
    return rejected;
}

void AlgorithmPanel::setConeBeam(bool cone) {
    m_coneBeam = cone;
    const int fbp = m_algorithm->findData(QStringLiteral("fbp"));
    if (m_fbpLabel.isEmpty()) m_fbpLabel = m_algorithm->itemText(fbp);
    m_algorithm->setItemText(fbp, cone ? tr("FDK (cone beam)") : m_fbpLabel);
    auto* model = qobject_cast<QStandardItemModel*>(m_algorithm->model());
    const QString why =
        tr("Cone-beam data are reconstructed by FDK; this method needs "
           "parallel-beam data");
    for (int i = 0; i < m_algorithm->count(); ++i) {
        if (i == fbp || !model) continue;
        model->item(i)->setEnabled(!cone);
        m_algorithm->setItemData(i, cone ? QVariant(why) : QVariant(), Qt::ToolTipRole);
    }
    m_algorithm->setToolTip(cone ? tr("Cone-beam data are reconstructed by FDK; the iterative "
                                      "methods need parallel-beam data")
                                 : QString());
    if (cone && m_current != "fbp")
        setAlgorithm("fbp");
    else
        onAlgorithmIndex(m_algorithm->currentIndex());  // the description
}

void AlgorithmPanel::setReady(bool ready) {
    m_fbp->setReady(ready);
    m_form->setEditable(ready);  // live parameters (MBIR's sharpness, SNR) stay editable
    m_algorithm->setEnabled(ready);
}

Status AlgorithmPanel::savePreset(const std::string& file) const {
    return savePresetFile(file, Preset{m_current, values()});
}

Status AlgorithmPanel::loadPreset(const std::string& file) {
    TOMO_ASSIGN_OR_RETURN(Preset preset, loadPresetFile(file));
    if (!setAlgorithm(preset.algorithm))
        return invalidArgument(file + ": this build has no algorithm '" + preset.algorithm + "'");
    std::vector<std::string> rejected = setParameters({{preset.algorithm, preset.parameters}});
    if (!rejected.empty())
        return invalidArgument(file + ": parameter '" + rejected.front() +
                               "' is unknown or out of range");
    return Status::ok();
}

}  // namespace tomo::ui
