#include "ui/main/CompareTab.h"

#include <algorithm>

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>

#include "app/jobs/FieldOfView.h"
#include "app/jobs/ResultNames.h"
#include "app/recon/Preflight.h"
#include "ui/views/SliceView.h"
#include "ui/views/ViewFactory.h"

namespace tomo::ui {

CompareTab::CompareTab(QWidget* parent)
    : QWidget(parent), m_historyBytes(app::MachineResources::probe().physicalMemory / 8) {
    auto* grid = new QGridLayout(this);
    for (int i = 0; i < kPanes; ++i) {
        const auto k = static_cast<std::size_t>(i);
        m_boxes[k] = new QComboBox(this);
        m_boxes[k]->setObjectName(QStringLiteral("compareChoice%1").arg(i + 1));
        m_boxes[k]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        m_boxes[k]->setMinimumContentsLength(16);
        m_panes[k] = createSliceView(SliceBackend::Auto, this);
        m_labels[k] = new QLabel(this);
        m_labels[k]->setWordWrap(true);
        grid->addWidget(m_boxes[k], 0, i);
        grid->addWidget(m_panes[k], 1, i);
        grid->addWidget(m_labels[k], 2, i);
        grid->setColumnStretch(i, 1);
        connect(m_boxes[k], &QComboBox::currentIndexChanged, this, [this, k](int item) {
            m_boxes[k]->setToolTip(m_boxes[k]->itemData(item, Qt::ToolTipRole).toString());
            for (int p = 0; p < kPanes; ++p)
                showPane(p);
            compareAll();
        });
        connect(m_panes[k], &SliceView::windowLevelChanged, this, [this, k](const WindowLevel& wl) {
            // One window for every image pane (not the differences).
            if (m_syncing || choiceOf(static_cast<int>(k)).kind == Kind::Difference) return;
            m_syncing = true;
            for (std::size_t o = 0; o < kPanes; ++o)
                if (o != k && choiceOf(static_cast<int>(o)).kind != Kind::Difference &&
                    m_panes[o]->hasImage())
                    m_panes[o]->setWindowLevel(wl);
            m_syncing = false;
        });
    }
    grid->setRowStretch(1, 1);
    setDataset(nullptr);
}

void CompareTab::setDataset(std::shared_ptr<const app::Dataset> data, bool sameScan) {
    m_data = std::move(data);
    const bool keep =
        sameScan && m_data && !m_history.empty() &&
        m_history.front().outcome->image.dim(1) == static_cast<std::size_t>(m_data->grid.ny) &&
        m_history.front().outcome->image.dim(2) == static_cast<std::size_t>(m_data->grid.nx);
    if (!keep) {
        m_history.clear();
        m_made = 0;
    }
    refillBoxes();
}

void CompareTab::addResult(std::shared_ptr<const app::ReconOutcome> result) {
    if (!result || result->image.empty()) return;
    if (!m_history.empty() && m_history.front().outcome == result) return;
    std::vector<const app::Provenance*> earlier;
    for (const Entry& e : m_history)
        earlier.push_back(&e.outcome->provenance);
    Entry entry;
    entry.number = ++m_made;
    entry.name = QStringLiteral("#%1 ").arg(entry.number) +
                 QString::fromStdString(app::resultName(result->provenance, earlier));
    entry.request = QString::fromStdString(app::requestDescription(result->provenance));
    if (result->provenance.count("algorithm") == 0)  // not made by the front door
        entry.name =
            QStringLiteral("#%1 ").arg(entry.number) + QString::fromStdString(result->variant);
    entry.outcome = std::move(result);
    m_history.push_front(std::move(entry));
    trimHistory();
    refillBoxes();
}

void CompareTab::setHistoryBytes(std::size_t bytes) {
    m_historyBytes = bytes;
    trimHistory();
    refillBoxes();
}

void CompareTab::trimHistory() {
    const auto bytesOf = [](const Entry& e) {
        return e.outcome->image.elementCount() * sizeof(float);
    };
    std::size_t older = 0;
    for (std::size_t i = 1; i < m_history.size(); ++i)
        older += bytesOf(m_history[i]);
    while (m_history.size() > kHistory ||
           (m_history.size() > 1 && m_historyBytes > 0 && older > m_historyBytes)) {
        older -= bytesOf(m_history.back());
        m_history.pop_back();
    }
}

CompareTab::Choice CompareTab::choiceOf(int pane) const {
    const std::vector<Choice> list = choiceList();
    const int item = m_boxes[static_cast<std::size_t>(pane)]->currentIndex();
    return list[static_cast<std::size_t>(std::clamp(item, 0, static_cast<int>(list.size()) - 1))];
}

std::vector<CompareTab::Choice> CompareTab::choiceList() const {
    std::vector<Choice> list{{Kind::None, 0}};
    for (std::size_t i = 0; i < m_history.size(); ++i)
        list.push_back({Kind::Result, i});
    if (m_data && !m_data->truth.empty()) list.push_back({Kind::Truth, 0});
    list.push_back({Kind::Difference, 0});
    return list;
}

QStringList CompareTab::choices() const {
    QStringList names;
    for (const Choice& c : choiceList()) {
        switch (c.kind) {
            case Kind::None:
                names << tr("(none)");
                break;
            case Kind::Result:
                names
                    << (c.result == 0 ? tr("Latest: %1") : tr("%1")).arg(m_history[c.result].name);
                break;
            case Kind::Truth:
                names << tr("Ground truth");
                break;
            case Kind::Difference:
                names << tr("Difference: pane 1 - pane 2");
                break;
        }
    }
    return names;
}

void CompareTab::refillBoxes() {
    const QStringList names = choices();
    const std::vector<Choice> list = choiceList();
    auto find = [&](Kind kind, std::size_t result) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].kind == kind && (kind != Kind::Result || list[i].result == result))
                return static_cast<int>(i);
        return 0;
    };
    const bool truth = m_data && !m_data->truth.empty();
    const std::array<int, kPanes> defaults{
        m_history.empty() ? 0 : find(Kind::Result, 0),
        m_history.size() < 2 ? (truth && !m_history.empty() ? find(Kind::Truth, 0) : 0)
                             : find(Kind::Result, 1),
        m_history.size() < 2 ? 0
        : truth              ? find(Kind::Truth, 0)
                             : find(Kind::Difference, 0)};
    for (std::size_t k = 0; k < kPanes; ++k) {
        const QSignalBlocker block(m_boxes[k]);
        m_boxes[k]->clear();
        m_boxes[k]->addItems(names);
        // Hovering a result shows its whole request.
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].kind == Kind::Result)
                m_boxes[k]->setItemData(static_cast<int>(i), m_history[list[i].result].request,
                                        Qt::ToolTipRole);
        m_boxes[k]->setCurrentIndex(defaults[k]);
        m_boxes[k]->setToolTip(m_boxes[k]->itemData(defaults[k], Qt::ToolTipRole).toString());
    }
    for (int p = 0; p < kPanes; ++p)
        showPane(p);
    compareAll();
}

void CompareTab::choose(int pane, int item) {
    m_boxes[static_cast<std::size_t>(pane)]->setCurrentIndex(item);
}

View2<const float> CompareTab::imageOf(const Choice& c) const {
    if (c.kind == Kind::Result) return m_history[c.result].outcome->image.plane(0);
    if (c.kind == Kind::Truth && m_data) return m_data->truth.plane(0);
    return {};
}

void CompareTab::showPane(int i) {
    const auto k = static_cast<std::size_t>(i);
    const Choice c = choiceOf(i);
    SliceView* view = m_panes[k];
    view->setTitle(m_boxes[k]->currentText());
    if (c.kind == Kind::Difference) {
        View2<const float> a = imageOf(choiceOf(0));
        View2<const float> b = imageOf(choiceOf(1));
        if (a.rows() == 0 || b.rows() == 0 || a.rows() != b.rows() || a.cols() != b.cols()) {
            view->clear(tr("needs two images of one shape in panes 1 and 2"));
            return;
        }
        m_difference = differenceImage(a, b);
        view->setImage(View2<const float>(m_difference.data(), a.rows(), a.cols(), a.cols()),
                       false);
        view->setWindowLevel(symmetricWindow(m_difference, 99.5));
        return;
    }
    View2<const float> image = imageOf(c);
    if (image.rows() == 0) {
        view->clear(m_history.empty() ? tr("Reconstruct to compare results") : tr("(none)"));
        return;
    }
    const bool first = k == 0 || !m_panes[0]->hasImage();
    m_syncing = true;
    view->setImage(image, first);
    if (!first) view->setWindowLevel(m_panes[0]->windowLevel());
    m_syncing = false;
}

void CompareTab::compareAll() {
    const bool truth = m_data && !m_data->truth.empty();
    View2<const float> reference = truth ? m_data->truth.plane(0) : imageOf(choiceOf(0));
    const QString against = truth ? tr("against the truth") : tr("against pane 1");
    for (std::size_t k = 0; k < kPanes; ++k) {
        m_metrics[k].reset();
        const Choice c = choiceOf(static_cast<int>(k));
        View2<const float> image = imageOf(c);
        if (c.kind == Kind::Difference || image.rows() == 0 || reference.rows() == 0) {
            m_labels[k]->setText(QString());
            continue;
        }
        if (image.data() == reference.data()) {
            m_labels[k]->setText(tr("the reference of the metrics"));
            continue;
        }
        // Over the field of view of the dataset's grid, as the Result panel measures.
        std::optional<app::FieldOfView> fov;
        if (m_data) fov = app::fieldOfView(m_data->geometry, m_data->grid);
        const bool inFov =
            fov && image.rows() == std::size_t(fov->rows) && image.cols() == std::size_t(fov->cols);
        auto m = inFov ? app::fieldOfViewMetrics(image, reference, *fov)
                       : compareImages(image, reference);
        if (!m) {
            m_labels[k]->setText(QString::fromStdString(m.status().message()));
            continue;
        }
        m_metrics[k] = *m;
        m_labels[k]->setText(tr("RMSE %1   PSNR %2 dB   SSIM %3   max |error| %4 (%5%6)")
                                 .arg(m->rmse, 0, 'g', 4)
                                 .arg(m->psnr, 0, 'f', 2)
                                 .arg(m->ssim, 0, 'f', 4)
                                 .arg(m->maxAbsError, 0, 'g', 4)
                                 .arg(against)
                                 .arg(inFov ? tr(", over the field of view") : QString()));
    }
}

}  // namespace tomo::ui
