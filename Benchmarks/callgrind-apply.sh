#!/usr/bin/env bash
# Figure 4's instructions per target, counted by callgrind: for each mix, the release
# LiveryBench makes 6 and then 2 switches of 1,000 targets on each side (the provider, the
# hand-written loop); (Ir(6) − Ir(2)) / 4 / 1,000 is what one target's switch costs, everything
# else (building the specs, registering) cancelling out. Deterministic, so unlike a wall time it
# does not depend on what else the machine runs.
#
#   Benchmarks/callgrind-apply.sh               every mix: five border demo set glow glow-keypath glow-general
#   Benchmarks/callgrind-apply.sh demo set      some of them
#
# glow declares its two properties by closures; glow-keypath is the same trait declared by key
# paths, glow-general the same written as a general trait (its own apply and Reversal); both
# have glow's hand side. Needs valgrind and the release LiveryBench (scripts/bench builds it; LIVERY_BENCH_SCRATCH=DIR
# as there).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${LIVERY_BENCH_SCRATCH:-.build}/release/LiveryBench"
[ -x "$binary" ] || { echo "no $binary: build it with swift build -c release --product LiveryBench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

# valgrind 3.19 cannot read the DWARF of Swift 6.3 binaries (as in profile-serving.sh); symbols stay.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/LiveryBench" "$binary"

# Total instructions of one run. Deterministic hashing: with a random seed per process, the
# set-up's dictionaries (identifiers, tweakables) cost different amounts in the two runs, by as
# much as a thousand instructions per target after the division.
instructions() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/LiveryBench" --switches "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# Instructions per target of one side's switch.
per_target() {
    local six two
    six=$(instructions "$1" "$2" 6)
    two=$(instructions "$1" "$2" 2)
    echo $(((six - two) / 4 / 1000))
}

printf '%-8s %14s %14s %7s\n' mix engine hand ratio
for mix in "${@:-five border demo set glow glow-keypath glow-general}"; do
    for name in $mix; do
        engine=$(per_target "$name" engine)
        hand=$(per_target "$name" hand)
        printf '%-8s %14s %14s %7s\n' "$name" "$engine" "$hand" "$(awk -v e="$engine" -v h="$hand" 'BEGIN { printf "%.2f", e / h }')"
    done
done
