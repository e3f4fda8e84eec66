#pragma once
/// @file RecentFiles.h
/// @brief The most recently opened datasets and sessions, newest first, kept in QSettings under
/// "recent/files" (at most `capacity`, duplicates moved to the front); for a cone-beam dataset
/// (two files and what was stated) the request beside, under "recent/cone". The QSettings object is
/// injected (created in runGui; tests pass one on a temporary file), never a global.
///
/// Threading: GUI thread.

#include <QSettings>
#include <QStringList>
#include <QVariantMap>

namespace tomo::ui {

class RecentFiles {
  public:
    explicit RecentFiles(QSettings& settings, int capacity = 8)
        : m_settings(settings), m_capacity(capacity) {}

    QStringList list() const {
        return m_settings.value(QStringLiteral("recent/files")).toStringList();
    }
    void add(const QString& path) {
        push(path);
        setCones(path, QString());
    }
    /// A cone-beam dataset: its projections' @p path is the entry, and @p request (the JSON text
    /// of SessionFile.h's coneToJson) what opening it again needs, kept under "recent/cone".
    void addCone(const QString& path, const QString& request) {
        push(path);
        setCones(path, request);
    }
    /// The request kept for entry @p path; empty unless it is a cone-beam dataset.
    QString coneRequest(const QString& path) const {
        return m_settings.value(QStringLiteral("recent/cone")).toMap().value(path).toString();
    }
    void clear() {
        m_settings.remove(QStringLiteral("recent/files"));
        m_settings.remove(QStringLiteral("recent/cone"));
    }

  private:
    void push(const QString& path) {
        QStringList files = list();
        files.removeAll(path);
        files.prepend(path);
        while (files.size() > m_capacity)
            files.removeLast();
        m_settings.setValue(QStringLiteral("recent/files"), files);
    }
    /// Sets (or with an empty @p request drops) @p path's cone request; drops those no longer
    /// in the list.
    void setCones(const QString& path, const QString& request) {
        QVariantMap cones = m_settings.value(QStringLiteral("recent/cone")).toMap();
        if (request.isEmpty())
            cones.remove(path);
        else
            cones.insert(path, request);
        const QStringList files = list();
        for (auto it = cones.begin(); it != cones.end();)
            it = files.contains(it.key()) ? std::next(it) : cones.erase(it);
        if (cones.isEmpty())
            m_settings.remove(QStringLiteral("recent/cone"));
        else
            m_settings.setValue(QStringLiteral("recent/cone"), cones);
    }

    QSettings& m_settings;
    int m_capacity;
};

}  // namespace tomo::ui
