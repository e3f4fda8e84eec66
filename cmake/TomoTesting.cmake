# GoogleTest: the system package when installed, else Debian's source copy (/usr/src/googletest,
# or TOMO_GTEST_SOURCE_DIR, e.g. carried to the GPU machine), else tests are skipped with a note.
option(TOMO_BUILD_TESTS "Build the test suite" ON)
set(TOMO_GTEST_SOURCE_DIR "/usr/src/googletest" CACHE PATH "GoogleTest sources used when no package")
set(TOMO_TESTS_STATE "off")
if(TOMO_BUILD_TESTS)
  find_package(GTest QUIET)
  if(GTest_FOUND)
    set(TOMO_TESTS_STATE "yes (GoogleTest package)")
  elseif(EXISTS "${TOMO_GTEST_SOURCE_DIR}/CMakeLists.txt")
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(${TOMO_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_googletest EXCLUDE_FROM_ALL)
    if(NOT TARGET GTest::gtest)  # googletest >= 1.11 defines these aliases itself
      add_library(GTest::gtest ALIAS gtest)
      add_library(GTest::gtest_main ALIAS gtest_main)
    endif()
    set(TOMO_TESTS_STATE "yes (GoogleTest from ${TOMO_GTEST_SOURCE_DIR})")
  else()
    set(TOMO_BUILD_TESTS OFF)
    set(TOMO_TESTS_STATE "no   GoogleTest not found (libgtest-dev or TOMO_GTEST_SOURCE_DIR)")
  endif()
endif()
if(TOMO_BUILD_TESTS)
  include(GoogleTest)
endif()

# tomo_add_test(NAME SOURCES a.cpp b.cpp LIBS ... [LABELS ...])
# One GoogleTest executable; every TEST is registered with ctest. Tests that need a device skip
# at run time (GTEST_SKIP) so the same source runs against every backend.
function(tomo_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main tomo_warnings)
  target_compile_definitions(${name} PRIVATE
    TOMO_TEST_BINARY_DIR="${CMAKE_BINARY_DIR}" TOMO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # No test takes a minute here; a hung one fails after five instead of holding CI.
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${T_LABELS}" TIMEOUT 300)
endfunction()
