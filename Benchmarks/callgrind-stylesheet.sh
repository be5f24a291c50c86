#!/usr/bin/env bash
# Figure 10's rendering in instructions, counted by callgrind: the release LiveryBench reads the
# realistic 64 KiB spec and renders its stylesheet (every theme) 6 and then 2 times, and the same
# for its bundle JSON (the figure's baseline); (Ir(6) − Ir(2)) / 4 is one rendering, reading the
# spec cancelling out. Deterministic, so unlike a wall time it does not depend on what else the
# machine runs. Needs valgrind and the release LiveryBench (LIVERY_BENCH_SCRATCH=DIR as in
# scripts/bench).
set -euo pipefail
source "$(dirname "$0")/lib/callgrind.sh"

css=$(callgrind_step --stylesheets css)
json=$(callgrind_step --stylesheets json)
printf '%-40s %14s\n' "stylesheet, every theme" "$css" "bundle JSON (baseline)" "$json"
awk -v c="$css" -v j="$json" 'BEGIN { printf "%-40s %14.2f\n", "ratio", c / j }'
