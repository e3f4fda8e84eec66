#include "ui/panels/DevicesPanel.h"

#include <map>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/Backends.h"
#include "app/Selection.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/SelectionCache.h"
#include "ui/main/Session.h"

namespace tomo::ui {

namespace {

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells) {
    for (int c = 0; c < cells.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QString gups(double v) {
    return v > 0 ? QString::number(v, 'f', 2) : QStringLiteral("-");
}

}  // namespace

DevicesPanel::DevicesPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_devices = makeTable(
        {tr("Backend"), tr("Device"), tr("Architecture"), tr("Units"), tr("Memory"), tr("Driver")},
        this);
    m_devices->setObjectName(QStringLiteral("devicesTable"));
    m_variants = makeTable({tr("Variant"), tr("Family"), tr("Interp."), tr("Predicted GU/s"),
                            tr("Measured GU/s"), tr("Selected"), tr("Note")},
                           this);
    m_variants->setObjectName(QStringLiteral("variantsTable"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    auto* refreshButton = new QPushButton(tr("Refresh"), this);
    m_benchmark = new QPushButton(tr("Benchmark this device"), this);
    m_override = new QPushButton(tr("Use this variant"), this);
    connect(refreshButton, &QPushButton::clicked, this, &DevicesPanel::refresh);
    connect(m_benchmark, &QPushButton::clicked, this, &DevicesPanel::benchmark);
    connect(m_override, &QPushButton::clicked, this, [this] {
        auto rows = m_variants->selectionModel()->selectedRows();
        if (rows.isEmpty()) return;
        QString id = m_variants->item(rows.front().row(), 0)->text();
        m_status->setText(tr("Reconstructions now use %1").arg(id));
        emit variantOverridden(id);
    });
    connect(m_devices, &QTableWidget::itemSelectionChanged, this, &DevicesPanel::showVariants);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(refreshButton);
    buttons->addWidget(m_benchmark);
    buttons->addWidget(m_override);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_devices, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_variants, 2);
    layout->addWidget(m_status);
    connect(&m_runner, &app::JobRunner::finished, this, &DevicesPanel::onFinished);
    refresh();
}

void DevicesPanel::refresh() {
    if (m_runner.isRunning()) return;
    auto out = std::make_shared<app::JobOutput<std::vector<DeviceDiscovery>>>();
    m_discoveryOut = out;
    m_benchmarking = false;
    m_runner.start(
        [out](const ExecContext&) {
            out->set(app::discoverAllDevices());
            return Status::ok();
        },
        QStringLiteral("device discovery"));
    m_status->setText(tr("Discovering devices..."));
}

void DevicesPanel::benchmark() {
    const DeviceInfo* device = selectedDevice();
    if (!device || m_runner.isRunning()) return;
    auto out = std::make_shared<app::JobOutput<SelectionResult>>();
    m_benchmarkOut = out;
    m_benchmarking = true;
    const std::string backend = device->backend;
    const BackProjectorRegistry& registry = m_session.registry();
    m_runner.start(
        [out, backend, &registry](const ExecContext& ctx) -> Status {
            SelectorOptions options;
            options.budgetSeconds = 4.0;
            options.repeats = 2;
            Status saved;
            TOMO_ASSIGN_OR_RETURN(SelectionResult r,
                                  app::tuneBackend(registry, backend, options, ctx, &saved));
            out->set(std::move(r));
            return Status::ok();
        },
        QStringLiteral("benchmark"));
    m_benchmark->setEnabled(false);
    m_status->setText(
        tr("Benchmarking the %1 variants (a few seconds)...").arg(QString::fromStdString(backend)));
}

void DevicesPanel::onFinished(bool ok, const QString& message) {
    m_benchmark->setEnabled(true);
    if (!ok) {
        m_status->setText(message);
        if (m_benchmarking) emit benchmarkFinished(false);
        return;
    }
    if (m_benchmarking) {
        auto result = m_benchmarkOut->take();
        if (result) showBenchmark(*result);
        emit benchmarkFinished(result != nullptr);
        return;
    }
    auto found = m_discoveryOut->take();
    m_deviceList.clear();
    QStringList unavailable;
    for (const DeviceDiscovery& d : *found) {
        if (!d.available) unavailable << QString::fromStdString(d.backend + ": " + d.message);
        for (const DeviceInfo& info : d.devices)
            m_deviceList.push_back(info);
    }
    m_devices->setRowCount(static_cast<int>(m_deviceList.size()));
    for (std::size_t i = 0; i < m_deviceList.size(); ++i) {
        const DeviceInfo& d = m_deviceList[i];
        setRow(m_devices, static_cast<int>(i),
               {QString::fromStdString(d.backend), QString::fromStdString(d.name),
                QString::fromStdString(d.architecture), QString::number(d.computeUnits),
                d.globalMemoryBytes
                    ? tr("%1 GiB").arg(d.globalMemoryBytes / double(1 << 30), 0, 'f', 1)
                    : QStringLiteral("-"),
                QString::fromStdString(d.driver)});
    }
    m_devices->resizeColumnsToContents();
    m_status->setText(unavailable.isEmpty() ? tr("%1 device(s)").arg(m_deviceList.size())
                                            : unavailable.join(QStringLiteral("\n")));
    if (!m_deviceList.empty()) m_devices->selectRow(0);
    emit devicesDiscovered(static_cast<int>(m_deviceList.size()));
}

const DeviceInfo* DevicesPanel::selectedDevice() const {
    auto rows = m_devices->selectionModel()->selectedRows();
    if (rows.isEmpty()) return nullptr;
    std::size_t row = static_cast<std::size_t>(rows.front().row());
    return row < m_deviceList.size() ? &m_deviceList[row] : nullptr;
}

void DevicesPanel::showVariants() {
    const DeviceInfo* device = selectedDevice();
    m_variants->setRowCount(0);
    if (!device) return;
    const BackProjectorRegistry& registry = m_session.registry();
    // The GUI's main case: one slice of medium size (the class app::defaultVariant() uses).
    const JobShape shape;
    Selector selector(registry, traitsFor(*device));
    std::vector<CandidateReport> ranked = selector.rank(device->backend, shape.slices);
    SelectionCache cache = SelectionCache::load(app::selectionCachePath());
    const SelectionRecord* record = cache.find(app::selectionKeyFor(*device));
    const CachedClass* measuredClass = record ? record->findClass(workloadClass(shape)) : nullptr;
    const std::string chosen = app::defaultVariant(registry, device->backend);
    m_variants->setRowCount(static_cast<int>(ranked.size()));
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        const CandidateReport& c = ranked[i];
        double measured = 0;
        QString note = QString::fromStdString(c.hasModel ? c.prediction.bottleneck : "no model");
        if (measuredClass)
            for (const CachedCandidate& cc : measuredClass->table)
                if (cc.id == c.info.id) {
                    measured = cc.measuredGups;
                    if (!cc.note.empty()) note = QString::fromStdString(cc.note);
                }
        setRow(m_variants, static_cast<int>(i),
               {QString::fromStdString(c.info.id), QString::fromStdString(c.info.family),
                QString::fromLatin1(interpolationName(c.info.interpolation)),
                gups(c.hasModel ? c.prediction.gups : 0), gups(measured),
                c.info.id == chosen ? tr("yes") : QString(), note});
    }
    m_variants->resizeColumnsToContents();
    if (!record)
        m_status->setText(tr("No measurements cached for %1: Benchmark this device to time the "
                             "variants.")
                              .arg(QString::fromStdString(device->name)));
}

void DevicesPanel::showBenchmark(const SelectionResult& result) {
    // The table shows the one-slice medium class (the GUI's main case) when it was tuned.
    const ClassSelection* shown = nullptr;
    for (const ClassSelection& c : result.classes)
        if (!shown || c.workloadClass == workloadClass(JobShape{})) shown = &c;
    if (!shown) return;
    m_variants->setRowCount(static_cast<int>(shown->table.size()));
    // A variant is chosen per kind of request ("exact.linear", "exact.nearest", ...): say for
    // which, so that a nearest-neighbour choice is not read as the choice of a linear job.
    std::map<std::string, QStringList> chosenFor;
    for (const auto& [key, id] : shown->choices)
        chosenFor[id] << QString::fromStdString(key.substr(key.find(':') + 1));
    for (std::size_t i = 0; i < shown->table.size(); ++i) {
        const CandidateReport& c = shown->table[i];
        setRow(m_variants, static_cast<int>(i),
               {QString::fromStdString(c.info.id), QString::fromStdString(c.info.family),
                QString::fromLatin1(interpolationName(c.info.interpolation)),
                gups(c.hasModel ? c.prediction.gups : 0), gups(c.measuredGups),
                chosenFor.count(c.info.id)
                    ? tr("yes (%1)").arg(chosenFor[c.info.id].join(QStringLiteral(", ")))
                    : QString(),
                QString::fromStdString(std::string(candidateStateName(c.state)) +
                                       (c.note.empty() ? "" : ": " + c.note))});
    }
    m_variants->resizeColumnsToContents();
    m_status->setText(tr("Benchmark of %1: %2 workload classes in %3 s; shown: %4x%4 image, "
                         "%5 slice(s)")
                          .arg(QString::fromStdString(result.backend))
                          .arg(result.classes.size())
                          .arg(result.seconds, 0, 'f', 1)
                          .arg(shown->shape.size)
                          .arg(shown->shape.slices));
}

}  // namespace tomo::ui
