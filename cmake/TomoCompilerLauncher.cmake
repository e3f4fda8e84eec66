# Use ccache for every language when it is installed (incremental rebuilds in CI and locally).
find_program(TOMO_CCACHE ccache)
if(TOMO_CCACHE)
  foreach(lang C CXX CUDA)
    if(NOT DEFINED CMAKE_${lang}_COMPILER_LAUNCHER)
      set(CMAKE_${lang}_COMPILER_LAUNCHER ${TOMO_CCACHE})
    endif()
  endforeach()
endif()
