#!/usr/bin/env bash
# Figure 4's instructions per target, counted by callgrind: for each mix, the release
# LiveryBench makes 6 and then 2 switches of 1,000 targets on each side (the provider, the
# hand-written revert-and-assign loop, and the loop that only assigns); (Ir(6) − Ir(2)) / 4 / 1,000 is what one target's switch costs, everything
# else (building the specs, registering) cancelling out. Deterministic, so unlike a wall time it
# does not depend on what else the machine runs.
#
#   Benchmarks/callgrind-apply.sh               every mix: five border demo set glow glow-keypath glow-general
#   Benchmarks/callgrind-apply.sh demo set      some of them
#
# glow declares its two properties by closures; glow-keypath is the same trait declared by key
# paths, glow-general the same written as a general trait (its own apply and Reversal); both
# have glow's hand side. Needs valgrind and the release LiveryBench (scripts/bench builds it;
# LIVERY_BENCH_SCRATCH=DIR as there).
set -euo pipefail
source "$(dirname "$0")/lib/callgrind.sh"

# Instructions per target of one side's switch.
per_target() {
    echo $(($(callgrind_step --switches "$1" "$2") / 1000))
}

printf '%-8s %14s %14s %14s %7s %9s\n' mix engine hand assign-only ratio "/assign"
for mix in "${@:-five border demo set glow glow-keypath glow-general}"; do
    for name in $mix; do
        engine=$(per_target "$name" engine)
        hand=$(per_target "$name" hand)
        assign=$(per_target "$name" assign)
        printf '%-8s %14s %14s %14s %7s %9s\n' "$name" "$engine" "$hand" "$assign" \
            "$(awk -v e="$engine" -v h="$hand" 'BEGIN { printf "%.2f", e / h }')" \
            "$(awk -v e="$engine" -v a="$assign" 'BEGIN { printf "%.2f", e / a }')"
    done
done
