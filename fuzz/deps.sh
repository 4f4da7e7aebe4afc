#!/usr/bin/env bash
# Install what `make fuzz` needs when it is missing: clang and its libFuzzer runtime
# (Debian: clang, libclang-rt-14-dev). Nothing is missing: no network.
set -euo pipefail
cc=${FUZZ_CC:-clang}
probe() {
    local out
    out=$(mktemp) || return 1
    printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' |
        "$cc" -x c - -fsanitize=fuzzer,address,undefined -o "$out" 2>/dev/null
    local rc=$?
    rm -f "$out"
    return $rc
}
command -v "$cc" >/dev/null && probe && exit 0
pkgs=(clang libclang-rt-14-dev)
if [ "$(id -u)" -eq 0 ]; then
    as_root=(env DEBIAN_FRONTEND=noninteractive)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n env DEBIAN_FRONTEND=noninteractive)
else
    echo "make fuzz: $cc cannot build libFuzzer targets; install as root: apt-get install ${pkgs[*]}" >&2
    exit 1
fi
echo "make fuzz: installing ${pkgs[*]}"
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${pkgs[@]}"
probe || { echo "make fuzz: $cc still cannot link -fsanitize=fuzzer" >&2; exit 1; }
