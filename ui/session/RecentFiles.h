#pragma once
/// @file RecentFiles.h
/// @brief The most recently opened datasets and sessions, newest first, kept in QSettings under
/// "recent/files" (at most `capacity`, duplicates moved to the front). The QSettings object is
/// injected (created in runGui; tests pass one on a temporary file), never a global.
///
/// Threading: GUI thread.

#include <QSettings>
#include <QStringList>

namespace tomo::ui {

class RecentFiles {
  public:
    explicit RecentFiles(QSettings& settings, int capacity = 8)
        : m_settings(settings), m_capacity(capacity) {}

    QStringList list() const {
        return m_settings.value(QStringLiteral("recent/files")).toStringList();
    }
    void add(const QString& path) {
        QStringList files = list();
        files.removeAll(path);
        files.prepend(path);
        while (files.size() > m_capacity)
            files.removeLast();
        m_settings.setValue(QStringLiteral("recent/files"), files);
    }
    void clear() { m_settings.remove(QStringLiteral("recent/files")); }

  private:
    QSettings& m_settings;
    int m_capacity;
};

}  // namespace tomo::ui
