// main() of tomo_ui_tests (no tests here; they are in *Test.cpp): widgets need a QApplication,
// created once before the tests run on the main thread. This main is used instead of gtest_main's
// (the linker takes the first definition).
#include <gtest/gtest.h>

#include <QApplication>

int main(int argc, char** argv) {
    // No display needed: render into memory. An explicit QT_QPA_PLATFORM (e.g. xcb under
    // xvfb-run) is respected.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    // Runs every registered test (what gtest's run-all macro expands to), now that the
    // QApplication exists.
    return ::testing::UnitTest::GetInstance()->Run();
}
