#!/usr/bin/env bash
# Figure 1's instructions per reload, counted by callgrind: the release LiveryBench follows a
# folder with 1,000 targets and saves its spec 6 and then 2 times (`--reloads MIX COUNT`);
# (Ir(6) − Ir(2)) / 4 is what one save costs the process from the rename to the load report,
# the watcher's settled scan after it included; everything else (start, set-up, the first load)
# cancels out. Deterministic in instructions, unlike the figure's wall times.
#
#   Benchmarks/callgrind-reload.sh              both specs: two demo
#   Benchmarks/callgrind-reload.sh demo         one of them
#
# Needs valgrind and the release LiveryBench (scripts/bench builds it; LIVERY_BENCH_SCRATCH=DIR as there).
set -euo pipefail
source "$(dirname "$0")/lib/callgrind.sh"

printf '%-6s %18s\n' spec 'instructions/save'
for mix in "${@:-two demo}"; do
    for name in $mix; do
        printf '%-6s %18s\n' "$name" "$(callgrind_step --reloads "$name")"
    done
done
