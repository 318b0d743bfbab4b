# HARENA_SANITIZE=address,undefined (any list -fsanitize= accepts) builds
# every target of this project with those sanitizers: the solver, the
# runtime, the override, the planner pass, the generators and the tests.
# What is not compiled here stays uninstrumented: Debian's libHalide (with
# the LLVM in it) and the AOT pipelines Halide emits (object code this
# compiler never sees). That mix is sound for both sanitizers: ASan
# intercepts malloc and free process-wide, so memory that crosses into
# libHalide or a pipeline is still tracked; only accesses made inside them
# go unchecked. Generator executables are instrumented too, so the planner
# pass runs under the sanitizers at every add_halide_library step of the
# build; libHalide leaves nothing for the leak checker to report at their
# exit, so they keep the same options as the tests. Each generator run
# prints ASan's warning that it does not fully support swapcontext, which
# libHalide uses to compile on a larger stack; it has not caused a report.
set(HARENA_SANITIZE "" CACHE STRING
    "Comma-separated sanitizers to build with, e.g. address,undefined (empty: none)")

if (HARENA_SANITIZE)
  set(harena_sanitize_flags -fsanitize=${HARENA_SANITIZE} -fno-omit-frame-pointer)
  if (HARENA_SANITIZE MATCHES "undefined")
    # UBSan only prints by default; a test must fail on undefined behaviour.
    list(APPEND harena_sanitize_flags -fno-sanitize-recover=undefined)
  endif ()
  add_compile_options(${harena_sanitize_flags})
  add_link_options(-fsanitize=${HARENA_SANITIZE})
  message(STATUS "halide-arena: building with -fsanitize=${HARENA_SANITIZE}")
endif ()
