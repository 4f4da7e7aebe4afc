#!/usr/bin/env bash
# Run each fuzz target for FUZZ_SECONDS seconds (`make fuzz` and `make fuzz-long` call this).
#   fuzz/run.sh <build-dir> [target ...]     (default: every fuzz_* program in <build-dir>/fuzz)
# Each target starts from its committed corpus (fuzz/corpus/<target>/: the seeds and what
# longer runs grew, minimized), copied into a scratch corpus <build-dir>/corpus/<target>/ that
# keeps growing from run to run. With FUZZ_MERGE=1 (make fuzz-long) the scratch corpus is then
# merged back into fuzz/corpus/<target>/ (libFuzzer's -merge=1: only inputs that add coverage
# are added), ready to commit; otherwise the committed corpus is never written. A finding
# stops that target, leaves its input in <build-dir>/artifacts/<target>/ (crash-*, leak-*,
# timeout-*, oom-*), and makes the script fail after the other targets have run.
# FUZZ_SEED: libFuzzer's -seed. `make fuzz` (what CI runs) gives 1, so that a run on the same
# commit makes the same inputs in the same order: a CI run explores a prefix of what a run
# here of at least its length explored, and passes where that passed (a gate that fails by
# chance on a commit that passed here is no gate). `make fuzz-long` leaves it unset (0: a seed
# of libFuzzer's choice), to explore; what it finds is fixed and its corpus committed, which
# moves the short runs on.
# Logs: <build-dir>/logs/<target>.log.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: fuzz/run.sh <build-dir> [target ...]}
shift
seconds=${FUZZ_SECONDS:-60}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for exe in "$build"/fuzz/fuzz_*; do
        [ -x "$exe" ] && targets+=("$(basename "$exe")")
    done
fi
[ ${#targets[@]} -gt 0 ] || { echo "fuzz/run.sh: no fuzz targets in $build/fuzz" >&2; exit 1; }

status=0
for t in "${targets[@]}"; do
    corpus="$build/corpus/$t" artifacts="$build/artifacts/$t" log="$build/logs/$t.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    if [ -d "fuzz/corpus/$t" ]; then
        cp -n "fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true
    fi
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
          -seed="${FUZZ_SEED:-0}" -artifact_prefix="$artifacts/")
    [ -f "fuzz/$t.dict" ] && args+=(-dict="fuzz/$t.dict")
    echo "== $t: ${seconds}s, seed ${FUZZ_SEED:-0}, corpus $corpus ($(ls "$corpus" | wc -l) inputs)"
    if ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$build/fuzz/$t" "${args[@]}" "$corpus" >"$log" 2>&1; then
        # the coverage when the committed corpus was loaded, and at the end
        grep -E '^#[0-9]+[[:space:]]+INITED' "$log" | tail -1
        grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1
        grep -E '^stat::number_of_executed_units|^stat::peak_rss' "$log"
        if [ "${FUZZ_MERGE:-0}" = 1 ]; then
            before=$(ls "fuzz/corpus/$t" | wc -l)
            ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/$t" -merge=1 -rss_limit_mb=2048 -max_len=4096 \
                "fuzz/corpus/$t" "$corpus" >>"$log" 2>&1
            echo "   merged into fuzz/corpus/$t: $before -> $(ls "fuzz/corpus/$t" | wc -l) inputs"
        fi
    else
        status=1
        echo "!! $t: finding; input kept in $artifacts/, log $log" >&2
        grep -E 'invariant broken|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -5 >&2
        echo "   reproduce: $build/fuzz/$t $artifacts/<file>" >&2
    fi
done
exit $status
