#!/bin/sh
# Packaging checks, run by ctest (registered in CMakeLists.txt, unsanitized builds only).
#   check_packaging.sh install           cmake --install the build into $RC_WORK_DIR/prefix
#   check_packaging.sh find_package      build tests/package against it with find_package(ricochet CONFIG)
#   check_packaging.sh pkg_config        cc consumer.c $(pkg-config --cflags --libs ricochet), run it
#   check_packaging.sh add_subdirectory  build tests/package/subdir, which add_subdirectory()s the repo
#   check_packaging.sh readme            run README.md's install-and-build blocks as written (below)
# An optional second argument is the build configuration. ctest sets RC_CMAKE, RC_GENERATOR,
# RC_SOURCE_DIR, RC_BUILD_DIR, RC_WORK_DIR, RC_LIBDIR, RC_PKG_CONFIG and CC.
# Programs are run without LD_LIBRARY_PATH: they must find libricochet.so.0 by their run path,
# as a user's do (a LD_LIBRARY_PATH here once hid that they did not).
set -eu

mode=${1:?usage: check_packaging.sh install|find_package|pkg_config|add_subdirectory|readme [config]}
config=${2:-}
cmake=${RC_CMAKE:-cmake}
src=${RC_SOURCE_DIR:?}
work=${RC_WORK_DIR:?}
prefix=$work/prefix
libdir=$prefix/${RC_LIBDIR:-lib}
cc=${CC:-cc}
jobs=$(nproc 2>/dev/null || echo 2)

fail() { echo "check_packaging.sh $mode: $*" >&2; exit 1; }
say() { echo "== $*"; }

# Configure, build and run a consumer project; $1 = source dir, $2 = build dir, rest = -D options.
build_consumer() {
    csrc=$1 cbin=$2
    shift 2
    rm -rf "$cbin"
    set -- -S "$csrc" -B "$cbin" -DCMAKE_C_COMPILER="$cc" "$@"
    if [ -n "${RC_GENERATOR:-}" ]; then set -- -G "$RC_GENERATOR" "$@"; fi
    if [ -n "$config" ]; then set -- "$@" -DCMAKE_BUILD_TYPE="$config"; fi
    say "$cmake $*"
    "$cmake" "$@"
    if [ -n "$config" ]; then
        "$cmake" --build "$cbin" --parallel "$jobs" --config "$config"
    else
        "$cmake" --build "$cbin" --parallel "$jobs"
    fi
}

run_program() { # $1 = build dir, $2 = program name (looked for in <dir> and <dir>/<config>)
    for exe in "$1/$2" "$1/$config/$2"; do
        if [ -f "$exe" ] && [ -x "$exe" ]; then
            say "run $exe"
            (unset LD_LIBRARY_PATH; "$exe") || fail "$exe failed"
            return 0
        fi
    done
    fail "no program $2 in $1"
}

case $mode in
install)
    rm -rf "$prefix"
    if [ -n "$config" ]; then
        "$cmake" --install "${RC_BUILD_DIR:?}" --prefix "$prefix" --config "$config"
    else
        "$cmake" --install "${RC_BUILD_DIR:?}" --prefix "$prefix"
    fi
    for f in include/ricochet/ricochet.h include/ricochet/base.h "${RC_LIBDIR:-lib}/libricochet.a" \
             "${RC_LIBDIR:-lib}/libricochet.so" "${RC_LIBDIR:-lib}/libricochet.so.0" \
             "${RC_LIBDIR:-lib}/pkgconfig/ricochet.pc" "${RC_LIBDIR:-lib}/cmake/ricochet/ricochetConfig.cmake" \
             "${RC_LIBDIR:-lib}/cmake/ricochet/ricochetConfigVersion.cmake"; do
        [ -e "$prefix/$f" ] || fail "not installed: $f"
    done
    # Hidden visibility: the shared library exports the RC_API functions and nothing else.
    if command -v nm >/dev/null 2>&1; then
        leaked=$(nm -D --defined-only "$libdir/libricochet.so" | awk 'NF >= 3 && $3 !~ /^rc_/ { print $3 }')
        [ -z "$leaked" ] || fail "libricochet.so exports symbols outside the rc_ namespace: $leaked"
        say "libricochet.so exports $(nm -D --defined-only "$libdir/libricochet.so" | grep -c ' rc_') rc_ symbols"
    fi
    ;;
find_package)
    [ -f "$libdir/cmake/ricochet/ricochetConfig.cmake" ] || fail "nothing installed in $prefix (run package_install)"
    build_consumer "$src/tests/package" "$work/find_package" -DCMAKE_PREFIX_PATH="$prefix"
    run_program "$work/find_package" consumer
    run_program "$work/find_package" consumer_shared
    ;;
pkg_config)
    pkg_config=${RC_PKG_CONFIG:-pkg-config}
    command -v "$pkg_config" >/dev/null 2>&1 || fail "pkg-config not found"
    PKG_CONFIG_PATH=$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    export PKG_CONFIG_PATH
    version=$("$pkg_config" --modversion ricochet) || fail "pkg-config does not find ricochet in $PKG_CONFIG_PATH"
    [ "$version" = 0.1.0 ] || fail "pkg-config says ricochet $version, expected 0.1.0"
    flags=$("$pkg_config" --cflags --libs ricochet)
    pc_libdir=$("$pkg_config" --variable=libdir ricochet)
    mkdir -p "$work/pkg_config"
    exe=$work/pkg_config/consumer
    rm -f "$exe"
    say "$cc -std=c11 -Wall -Wextra -Wconversion -Wshadow -Werror consumer.c $flags -Wl,-rpath,$pc_libdir"
    # shellcheck disable=SC2086 # $flags is a list of words
    "$cc" -std=c11 -Wall -Wextra -Wconversion -Wshadow -Werror -o "$exe" "$src/tests/package/consumer.c" $flags -Wl,-rpath,"$pc_libdir"
    if command -v readelf >/dev/null 2>&1; then
        dynamic=$(readelf -d "$exe")
        case $dynamic in
        *'(NEEDED)'*'[libricochet.so.0]'*) ;;
        *) fail "consumer is not linked to libricochet.so.0" ;;
        esac
    fi
    say "run $exe (no LD_LIBRARY_PATH)"
    (unset LD_LIBRARY_PATH; "$exe") || fail "$exe failed"
    ;;
add_subdirectory)
    build_consumer "$src/tests/package/subdir" "$work/add_subdirectory" -DRICOCHET_SOURCE_DIR="$src"
    run_program "$work/add_subdirectory" consumer
    ;;
readme)
    # README.md's "Installing ricochet" blocks, as a newcomer types them one after the other in
    # one shell: each is the ```sh block under a line <!-- package_readme: NAME -->. They run in
    # a copy of the source tree (what a fresh clone has) with HOME set to a scratch folder, so
    # ~/.local/ricochet and ~/hello land there, and with neither LD_LIBRARY_PATH, PKG_CONFIG_PATH
    # nor CMAKE_PREFIX_PATH (nor CC) set. The system-wide block needs root and is not run.
    readme=$src/README.md
    expected='step 10: hit at (9.500, -1.375), normal (-1, 0), bounced off at (-30, -15)'
    blocks='build private static cmake'
    runs=3 # ./hello, ./hello-static, build/hello
    dir=$work/readme
    rm -rf "$dir"
    mkdir -p "$dir/ricochet" "$dir/home"
    for f in "$src"/* "$src"/.[!.]*; do
        [ -e "$f" ] || continue
        case ${f##*/} in .git | build* | cmake-build-* | out) continue ;; esac
        case $work/ in "$f"/*) continue ;; esac # the scratch folder itself
        cp -R "$f" "$dir/ricochet/"
    done
    script=$dir/readme.sh
    echo 'set -ex' >"$script"
    for block in $blocks; do
        awk -v marker="<!-- package_readme: $block -->" '
            found == 0 && $0 == marker { found = 1; next }
            found == 1 { if ($0 != "```sh") exit 1; found = 2; next }
            found == 2 && $0 == "```" { done = 1; exit }
            found == 2 { print }
            END { exit !done }' "$readme" >>"$script" ||
            fail "README.md has no \`\`\`sh block under <!-- package_readme: $block -->"
    done
    ! grep -n 'LD_LIBRARY_PATH' "$script" || fail "the README's commands set LD_LIBRARY_PATH"
    say "README.md blocks $blocks, run in $dir/ricochet with HOME=$dir/home:"
    cat "$script"
    cmake_dir=$(dirname "$(command -v "$cmake")")
    status=0
    (
        unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH CC # ctest sets CC; a newcomer has none
        HOME=$dir/home PATH=$cmake_dir:$PATH
        export HOME PATH
        cd "$dir/ricochet"
        sh "$script"
    ) >"$dir/log" 2>&1 || status=$?
    cat "$dir/log"
    [ "$status" -eq 0 ] || fail "the README's commands failed (exit status $status)"
    count=$(grep -cxF "$expected" "$dir/log" || true)
    [ "$count" -eq "$runs" ] || fail "'$expected' printed $count times, expected $runs (one per program run)"
    if grep -n 'warning:' "$dir/log"; then
        fail "the README's build printed warnings"
    fi
    if command -v readelf >/dev/null 2>&1; then
        dynamic=$(readelf -d "$dir/home/hello/hello")
        case $dynamic in
        *'[libricochet.so.0]'*) ;;
        *) fail "$dir/home/hello/hello is not linked to libricochet.so.0" ;;
        esac
        case $dynamic in
        *"path: [$dir/home/.local/ricochet/lib]"*) ;;
        *) fail "$dir/home/hello/hello has no run path $dir/home/.local/ricochet/lib" ;;
        esac
        dynamic=$(readelf -d "$dir/home/hello/hello-static")
        case $dynamic in
        *libricochet*) fail "$dir/home/hello/hello-static is linked to the shared library" ;;
        esac
    fi
    ;;
*)
    fail "unknown mode"
    ;;
esac
say "package check $mode: ok"
