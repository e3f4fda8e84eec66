// runGui (GuiApp.h): command line, Session and MainWindow, and the --screenshot mode.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QSettings>

#include "app/Backends.h"
#include "tomo/config.h"
#include "ui/main/ConeActions.h"
#include "ui/main/GuiApp.h"
#include "ui/main/MainWindow.h"
#include "ui/main/QuitOnSignal.h"
#include "ui/main/ScreenshotMode.h"
#include "ui/main/Session.h"

namespace tomo::ui {

namespace {

/// <dir of the executable>/../share/tomostation/demo, as `tomo demo` looks for it.
std::filesystem::path bundledDemoDir() {
    std::filesystem::path exe(QCoreApplication::applicationDirPath().toStdString());
    return exe.parent_path() / "share" / "tomostation" / "demo";
}

/// The icon the package installs (resources/CMakeLists.txt): from the icon theme, else beside the
/// executable (an unpacked tarball or the build tree).
QIcon applicationIcon() {
    const QString png = QCoreApplication::applicationDirPath() +
                        QStringLiteral("/../share/icons/hicolor/256x256/apps/tomostation.png");
    return QIcon::fromTheme(QStringLiteral("tomostation"), QIcon(png));
}

/// Takes `--geometry FILE` (or `--geometry=FILE`) out of the arguments before QApplication sees
/// them: Qt's X11 platform takes --geometry as the window's X11 geometry and swallows it.
std::optional<std::string> takeConeGeometry(int& argc, char** argv) {
    std::optional<std::string> value;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--geometry" && i + 1 < argc) {
            value = argv[++i];
        } else if (arg.starts_with("--geometry=")) {
            value = std::string(arg.substr(11));
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    argv[argc] = nullptr;
    return value;
}

}  // namespace

int runGui(int argc, char** argv) {
    const std::optional<std::string> coneGeometry = takeConeGeometry(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tomostation"));
    QApplication::setApplicationVersion(QStringLiteral(TOMO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("tomostation"));  // tomostation.desktop
    QApplication::setWindowIcon(applicationIcon());

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
    QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("With --screenshot: the view or panel to save, one of ") +
            screenshotViews().join(QStringLiteral(", ")) + QStringLiteral(" (default main)."),
        QStringLiteral("NAME"), QStringLiteral("main"));
    QCommandLineOption shotSize(QStringLiteral("screenshot-size"),
                                QStringLiteral("With --screenshot: image size (default 1280x800)."),
                                QStringLiteral("WxH"), QStringLiteral("1280x800"));
    QCommandLineOption geometry(
        QStringLiteral("geometry"),
        QStringLiteral("Open PATH as cone-beam projections with this geometry file (RTK XML or "
                       "TomoStation JSON) and reconstruct them by FDK."),
        QStringLiteral("FILE"));
    parser.addOptions({demo, data, size, threads, screenshot, view, shotSize, geometry});
    parser.addPositionalArgument(
        QStringLiteral("PATH"),
        QStringLiteral("Data file (HDF5 / NXtomo / DXchange, TIFF, raw, MetaImage, NRRD) or "
                       "dataset folder to open and reconstruct."),
        QStringLiteral("[PATH]"));
    parser.process(app);

    bool sizeOk = true;
    int n = parser.isSet(size) ? parser.value(size).toInt(&sizeOk) : 0;
    bool threadsOk = true;
    int threadCount = parser.value(threads).toInt(&threadsOk);
    if (!sizeOk || (parser.isSet(size) && (n < 16 || n > 8192)) || !threadsOk || threadCount < 0 ||
        parser.positionalArguments().size() > 1 ||
        (coneGeometry && parser.positionalArguments().isEmpty())) {
        std::fprintf(stderr,
                     "tomostation: --size must be 16..8192, --threads >= 0, at most one "
                     "PATH, and --geometry needs the projections PATH (see --help)\n");
        return 2;
    }

    const QStringList wh = parser.value(shotSize).split(QLatin1Char('x'));
    bool wOk = false, hOk = false;
    const QSize shot = wh.size() == 2 ? QSize(wh[0].toInt(&wOk), wh[1].toInt(&hOk)) : QSize();
    if (!wOk || !hOk || shot.width() < 64 || shot.height() < 64 || shot.width() > 8192 ||
        shot.height() > 8192 || !screenshotViews().contains(parser.value(view))) {
        std::fprintf(stderr,
                     "tomostation: --screenshot-size must be WxH within 64..8192 and --view one "
                     "of %s\n",
                     qPrintable(screenshotViews().join(QStringLiteral(", "))));
        return 2;
    }

    // Settings persist in the platform's place (~/.config/TomoStation/tomostation.conf);
    // injected, never global.
    QSettings settings(QStringLiteral("TomoStation"), QStringLiteral("tomostation"));
    const app::Engine engine;  // the devices, owned once for the session
    Session session(engine);
    session.runner().setThreads(threadCount);
    MainWindow window(session, settings);
    // SIGTERM / SIGINT: cancel the job and quit at once, without asking.
    QuitOnSignal quitOnSignal([&] {
        window.setConfirmations(false);
        session.cancel();
        QApplication::quit();
    });
    if (parser.isSet(screenshot)) {
        window.resize(shot);
        new ScreenshotMode(window, parser.value(view), parser.value(screenshot), shot);
    } else {
        window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    }
    window.show();

    if (coneGeometry) {
        auto request = window.coneActions()->commandLineRequest(
            parser.positionalArguments().front().toStdString(), *coneGeometry);
        if (request) {
            window.openConeAndReconstruct(*request);
        } else if (parser.isSet(screenshot)) {
            std::fprintf(stderr, "tomostation: %s\n", request.status().message().c_str());
            return 1;
        }
    } else if (!parser.positionalArguments().isEmpty() && !parser.isSet(demo)) {
        window.openAndReconstruct(parser.positionalArguments().front().toStdString());
    } else if (n > 0) {
        window.startDemo(app::demoSpecForSize(n));
    } else {
        std::filesystem::path dir = parser.isSet(data)
                                        ? std::filesystem::path(parser.value(data).toStdString())
                                        : bundledDemoDir();
        window.startDemo(app::DemoSpec{}, dir);
    }
    int code = QApplication::exec();
    if (!parser.isSet(screenshot)) {
        settings.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
        settings.setValue(QStringLiteral("window/state"), window.saveState());
    }
    return code;
}

}  // namespace tomo::ui
