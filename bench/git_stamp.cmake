# bench/git_stamp.cmake: writes OUT, a header defining BENCH_GIT as the library's commit (and
# whether its sources differ from it), at every build of bench_run rather than at configure:
# a build made without configuring again reports the commit it was built from. The file is
# rewritten only when its text changes, so an unchanged tree recompiles nothing.
#   cmake -DSOURCE_DIR=<tree> -DOUT=<header> [-DGIT=<git>] -P git_stamp.cmake
set(_stamp "unknown")
if(GIT)
  execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" rev-parse --short HEAD
                  OUTPUT_VARIABLE _stamp OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0)
    execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                            -- core shapes broadphase world include
                    OUTPUT_VARIABLE _dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_dirty)
      string(APPEND _stamp " + uncommitted changes to the library")
    endif()
  else()
    set(_stamp "unknown")
  endif()
endif()
set(_text "/* written by bench/git_stamp.cmake at build time */\n#define BENCH_GIT \"${_stamp}\"\n")
set(_old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}" "${_text}")
endif()
