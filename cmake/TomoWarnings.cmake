# Warnings are errors in CI: -Wall -Wextra everywhere, -Werror when TOMO_WERROR is ON
# (the presets used by the README commands and .ci/run turn it on).
option(TOMO_WERROR "Treat compiler warnings as errors" OFF)
add_library(tomo_warnings INTERFACE)
target_compile_options(tomo_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wshadow=local>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${TOMO_WERROR}>>:-Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${TOMO_WERROR}>>:-Werror=all-warnings>)
