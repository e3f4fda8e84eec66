// File > Copy as Python (CopyAsPython.h).
#include "ui/main/CopyAsPython.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>

#include "app/jobs/PythonScript.h"
#include "ui/main/Session.h"

namespace tomo::ui {

CopyAsPython::CopyAsPython(Session& session, QMenu* menu, QWidget* window)
    : QObject(window), m_session(session), m_window(window) {
    m_action = menu->addAction(tr("Copy as &Python"), this, &CopyAsPython::copy);
    m_action->setObjectName(QStringLiteral("copyAsPython"));
    m_action->setToolTip(
        tr("The current reconstruction as a tomostation script on the "
           "clipboard: the same request, the same bits (docs/python.md)"));
    m_action->setEnabled(false);
    // With the saving actions, above the separator before Quit (not below Quit).
    const QList<QAction*> actions = menu->actions();
    for (qsizetype i = actions.size() - 2; i >= 0; --i)
        if (actions[i]->isSeparator()) {
            menu->removeAction(m_action);
            menu->insertAction(actions[i], m_action);
            break;
        }
    connect(&session, &Session::reconstructionChanged, this,
            [this] { m_action->setEnabled(m_session.reconstruction() != nullptr); });
}

Result<std::string> CopyAsPython::script() const {
    const auto recon = m_session.reconstruction();
    if (!recon || !m_session.dataset() || !m_session.loadedDataset())
        return invalidArgument("Copy as Python: reconstruct something first");
    app::ScriptRequest r;
    r.file = m_session.dataFile();
    r.datasetFolder = m_session.dataFolder();
    r.preprocessing = m_session.state().preprocessing();
    r.loaded = m_session.loadedDataset().get();
    r.reconstructed = m_session.dataset().get();
    r.sampling = m_session.sampling();
    const auto algorithm = recon->provenance.find("algorithm");
    r.algorithm = algorithm == recon->provenance.end() ? "fbp" : algorithm->second;
    if (r.algorithm == "fbp") {
        r.fbp = m_session.reconOptions();
        r.variant = recon->variant;
    } else {
        const app::IterativeJobSpec& spec = m_session.iterativeSpec();
        r.parameters = spec.parameters;
        r.backend = spec.backend;
        r.warmStart = spec.initial != nullptr;
    }
    return app::pythonScript(r);
}

void CopyAsPython::copy() {
    const Result<std::string> text = script();
    if (!text) {
        QMessageBox::information(m_window, tr("Copy as Python"),
                                 QString::fromStdString(text.status().message()));
        return;
    }
    QGuiApplication::clipboard()->setText(QString::fromStdString(*text));
    emit copied(
        tr("Copied a tomostation script to the clipboard: it writes "
           "reconstruction.tif with the same bits (docs/python.md)"));
}

}  // namespace tomo::ui
