// runGui (GuiApp.h): command line, Session and MainWindow, and the --screenshot mode.
#include <cstdio>
#include <filesystem>

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QTimer>

#include "app/Backends.h"
#include "tomo/config.h"
#include "ui/main/GuiApp.h"
#include "ui/main/MainWindow.h"
#include "ui/main/Session.h"

namespace tomo::ui {

namespace {

/// <dir of the executable>/../share/tomostation/demo, as `tomo demo` looks for it.
std::filesystem::path bundledDemoDir() {
    std::filesystem::path exe(QCoreApplication::applicationDirPath().toStdString());
    return exe.parent_path() / "share" / "tomostation" / "demo";
}

/// After the first reconstruction (or a failed load), saves the window to @p file and quits.
void arrangeScreenshot(Session& session, MainWindow& window, const QString& file) {
    QObject::connect(&session, &Session::jobFinished, &window,
                     [&window, file](Session::JobKind kind, bool ok, const QString& message) {
                         if (ok && kind != Session::JobKind::Reconstruct) return;
                         if (!ok) {
                             std::fprintf(stderr, "tomostation: %s\n", qPrintable(message));
                             QCoreApplication::exit(1);
                             return;
                         }
                         // Let pending layout and paint requests run before grabbing.
                         QTimer::singleShot(0, &window, [&window, file] {
                             bool saved = window.grab().save(file, "PNG");
                             if (!saved)
                                 std::fprintf(stderr, "tomostation: cannot write %s\n",
                                              qPrintable(file));
                             QCoreApplication::exit(saved ? 0 : 2);
                         });
                     });
}

}  // namespace

int runGui(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tomostation"));
    QApplication::setApplicationVersion(QStringLiteral(TOMO_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("TomoStation CT reconstruction workstation"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption demo(QStringLiteral("demo"),
                            QStringLiteral("Open and reconstruct the demo (the default)."));
    QCommandLineOption data(QStringLiteral("data"), QStringLiteral("Folder of the demo dataset."),
                            QStringLiteral("DIR"));
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Generate an NxN demo."),
                            QStringLiteral("N"));
    QCommandLineOption threads(QStringLiteral("threads"), QStringLiteral("CPU threads, 0 = all."),
                               QStringLiteral("N"), QStringLiteral("0"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to FILE (PNG) after the first "
                                                 "reconstruction, then exit."),
                                  QStringLiteral("FILE"));
    parser.addOptions({demo, data, size, threads, screenshot});
    parser.addPositionalArgument(QStringLiteral("FOLDER"),
                                 QStringLiteral("Dataset folder to open."),
                                 QStringLiteral("[FOLDER]"));
    parser.process(app);

    bool sizeOk = true;
    int n = parser.isSet(size) ? parser.value(size).toInt(&sizeOk) : 0;
    bool threadsOk = true;
    int threadCount = parser.value(threads).toInt(&threadsOk);
    if (!sizeOk || (parser.isSet(size) && (n < 16 || n > 8192)) || !threadsOk || threadCount < 0 ||
        parser.positionalArguments().size() > 1) {
        std::fprintf(stderr,
                     "tomostation: --size must be 16..8192, --threads >= 0, at most one "
                     "FOLDER (see --help)\n");
        return 2;
    }

    Session session(app::makeRegistry());
    session.runner().setThreads(threadCount);
    MainWindow window(session);
    if (parser.isSet(screenshot)) arrangeScreenshot(session, window, parser.value(screenshot));
    window.show();

    if (!parser.positionalArguments().isEmpty() && !parser.isSet(demo)) {
        window.openDatasetAndReconstruct(parser.positionalArguments().front().toStdString());
    } else if (n > 0) {
        window.startDemo(app::demoSpecForSize(n));
    } else {
        std::filesystem::path dir = parser.isSet(data)
                                        ? std::filesystem::path(parser.value(data).toStdString())
                                        : bundledDemoDir();
        window.startDemo(app::DemoSpec{}, dir);
    }
    return QApplication::exec();
}

}  // namespace tomo::ui
