#!/usr/bin/env bash
# Figure 10's rendering in instructions, counted by callgrind: the release LiveryBench reads the
# realistic 64 KiB spec and renders its stylesheet (every theme) 6 and then 2 times, and the same
# for its bundle JSON (the figure's baseline); (Ir(6) − Ir(2)) / 4 is one rendering, reading the
# spec cancelling out. Deterministic, so unlike a wall time it does not depend on what else the
# machine runs. Needs valgrind and the release LiveryBench (LIVERY_BENCH_SCRATCH=DIR as in
# callgrind-apply.sh, whose set-up this repeats).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${LIVERY_BENCH_SCRATCH:-.build}/release/LiveryBench"
[ -x "$binary" ] || { echo "no $binary: build it with swift build -c release --product LiveryBench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

# valgrind 3.19 cannot read the DWARF of Swift 6.3 binaries (as in profile-serving.sh); symbols stay.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/LiveryBench" "$binary"

# Total instructions of one run; deterministic hashing, so that the writer's dictionaries cost
# the same in both runs.
instructions() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$work/LiveryBench" --stylesheets "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

per_rendering() {
    local six two
    six=$(instructions "$1" 6)
    two=$(instructions "$1" 2)
    echo $(((six - two) / 4))
}

css=$(per_rendering css)
json=$(per_rendering json)
printf '%-40s %14s\n' "stylesheet, every theme" "$css" "bundle JSON (baseline)" "$json"
awk -v c="$css" -v j="$json" 'BEGIN { printf "%-40s %14.2f\n", "ratio", c / j }'
