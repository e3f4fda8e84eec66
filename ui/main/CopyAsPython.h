#pragma once
/// @file CopyAsPython.h
/// @brief File > Copy as Python (issue 30): the session's current request (the data as loaded,
/// the sampling, the centre, the algorithm and its parameters) as a tomostation script on the
/// clipboard (app/jobs/PythonScript.h), so what was tuned interactively runs unchanged on a
/// whole beamtime and gives the same bits. The action is enabled while a reconstruction is
/// shown; what a script cannot reproduce is said in a message box.

#include <string>

#include <QObject>

#include "core/base/Status.h"

class QAction;
class QMenu;
class QWidget;

namespace tomo::ui {

class Session;

class CopyAsPython : public QObject {
    Q_OBJECT

  public:
    /// Adds the action to @p menu, above its last group (Quit); @p session must outlive it;
    /// messages are parented to @p window.
    CopyAsPython(Session& session, QMenu* menu, QWidget* window);

    /// The script of the session's current reconstruction, or why there is none.
    Result<std::string> script() const;
    QAction* action() const { return m_action; }

  public slots:
    /// Puts script() on the clipboard (or shows why not).
    void copy();

  signals:
    /// The script is on the clipboard: what to tell the user (the window's status line).
    void copied(const QString& message);

  private:
    Session& m_session;
    QWidget* m_window;
    QAction* m_action;
};

}  // namespace tomo::ui
