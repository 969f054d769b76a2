# Writes OUTPUT (a header defining REBOUND_GIT_COMMIT: the abbreviated commit of SOURCE_DIR, with
# "-dirty" when tracked files differ from it, or "unknown" outside a git checkout). Run at every
# build by the rebound_git_commit target; the header is replaced only when its text changes, so
# an unchanged commit recompiles nothing.
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE hash RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(status EQUAL 0 AND hash)
    set(commit "${hash}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" status --porcelain
                            --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND NOT changes STREQUAL "")
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
file(WRITE "${OUTPUT}.new" "#pragma once\n#define REBOUND_GIT_COMMIT \"${commit}\"\n")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
