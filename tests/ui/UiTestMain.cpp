// main() of tomo_ui_tests: widgets need a QApplication, created once before the tests run on the
// main thread. This main is used instead of gtest_main's (the linker takes the first definition).
#include <gtest/gtest.h>

#include <QApplication>

int main(int argc, char** argv) {
    // No display needed: render into memory. An explicit QT_QPA_PLATFORM (e.g. xcb under
    // xvfb-run) is respected.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    return RUN_ALL_TESTS();
}
