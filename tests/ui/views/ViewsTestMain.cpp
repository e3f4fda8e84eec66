// main() of tomo_ui_views_tests: a QApplication on Qt's offscreen platform, plus an X display for
// the VTK views. When DISPLAY is unset (ctest on a headless machine) a private Xvfb is started
// for this process and stopped at exit; listing tests (--gtest_list_tests, ctest discovery)
// starts nothing.
#include <gtest/gtest.h>

#include <cstring>

#include <QApplication>
#include <QProcess>
#include <QStandardPaths>

namespace {

/// A private Xvfb server for the lifetime of the object. Xvfb -displayfd writes the display
/// number it picked (the first free one) to the given descriptor, here its stdout.
class PrivateXServer {
  public:
    PrivateXServer() {
        QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (xvfb.isEmpty()) return;
        m_process.setProgram(xvfb);
        m_process.setArguments({QStringLiteral("-displayfd"), QStringLiteral("1"),
                                QStringLiteral("-screen"), QStringLiteral("0"),
                                QStringLiteral("1024x768x24"), QStringLiteral("-noreset"),
                                QStringLiteral("-nolisten"), QStringLiteral("tcp")});
        m_process.setStandardErrorFile(QProcess::nullDevice());
        m_process.start();
        if (!m_process.waitForStarted(5000)) return;
        QByteArray number;
        while (!number.contains('\n') && m_process.waitForReadyRead(5000))
            number += m_process.readAllStandardOutput();
        number = number.trimmed();
        if (number.isEmpty()) return;
        qputenv("DISPLAY", ":" + number);
    }
    ~PrivateXServer() {
        if (m_process.state() == QProcess::NotRunning) return;
        m_process.terminate();
        if (!m_process.waitForFinished(3000)) m_process.kill();
        m_process.waitForFinished(1000);
    }
    PrivateXServer(const PrivateXServer&) = delete;
    PrivateXServer& operator=(const PrivateXServer&) = delete;

  private:
    QProcess m_process;
};

bool listingOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--gtest_list_tests", 18) == 0) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    if (listingOnly(argc, argv) || !qEnvironmentVariableIsEmpty("DISPLAY"))
        return ::testing::UnitTest::GetInstance()->Run();
    PrivateXServer server;
    return ::testing::UnitTest::GetInstance()->Run();
}
