#pragma once
/// @file DevicesPanel.h
/// @brief The compute devices of this machine and build (CPU, CUDA, OpenCL through
/// app::discoverAllDevices) with their architecture, and for the selected device the
/// back-projector variants of its backend: the performance model's predicted GU/s (core
/// Selector::rank on traitsFor(device)), the GU/s measured by the last sweep stored in the
/// selection cache (app/Selection.h), and which variant is selected. "Use this variant"
/// overrides the choice for the next reconstruction; "Benchmark this device" runs the timed
/// sweep (app::tuneBackend, a few seconds) off the GUI thread and shows its table.
///
/// GU/s: giga voxel updates per second, voxels x projections / seconds / 1e9 (docs/selection.md).
/// Threading: GUI thread; discovery and the sweep run on the panel's own JobRunner.

#include <string>
#include <vector>

#include <QWidget>

#include "app/qt/JobRunner.h"
#include "core/devices/DeviceInfo.h"
#include "core/selection/Selector.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace tomo::ui {

class Session;

class DevicesPanel : public QWidget {
    Q_OBJECT

  public:
    explicit DevicesPanel(Session& session, QWidget* parent = nullptr);

    QTableWidget* devicesTable() const { return m_devices; }
    QTableWidget* variantsTable() const { return m_variants; }
    const std::vector<DeviceInfo>& devices() const { return m_deviceList; }

  public slots:
    /// Discovers the devices again (off the GUI thread).
    void refresh();
    /// Runs the timed sweep for the selected device's backend.
    void benchmark();

  signals:
    /// The user chose @p variantId for reconstructions.
    void variantOverridden(const QString& variantId);
    void devicesDiscovered(int count);
    void benchmarkFinished(bool ok);

  private:
    void onFinished(bool ok, const QString& message);
    void showVariants();
    void showBenchmark(const SelectionResult& result);
    const DeviceInfo* selectedDevice() const;

    Session& m_session;
    app::JobRunner m_runner;
    bool m_benchmarking = false;
    std::shared_ptr<app::JobOutput<std::vector<DeviceDiscovery>>> m_discoveryOut;
    std::shared_ptr<app::JobOutput<SelectionResult>> m_benchmarkOut;
    std::vector<DeviceInfo> m_deviceList;

    QTableWidget* m_devices = nullptr;
    QTableWidget* m_variants = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_benchmark = nullptr;
    QPushButton* m_override = nullptr;
};

}  // namespace tomo::ui
