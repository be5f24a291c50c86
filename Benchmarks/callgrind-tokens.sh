#!/usr/bin/env bash
# Figure 11 in instructions, counted by callgrind: the release LiveryBench generates figure 11's
# 5,000-token document and its YAML twin, then reads one of them with Spec(data:format:source:)
# 6 and then 2 times; (Ir(6) − Ir(2)) / 4 is one read, generating the documents cancelling out.
# Deterministic, so unlike a wall time it does not depend on what else the machine runs.
# Needs valgrind and the release LiveryBench (LIVERY_BENCH_SCRATCH=DIR as in scripts/bench).
#
#   Benchmarks/callgrind-tokens.sh                  the two reads and their ratio
#   Benchmarks/callgrind-tokens.sh --annotate DIR   also one profile of each side in DIR
#                                                   (tokens.out, yaml.out: callgrind_annotate them)
set -euo pipefail
annotate=""
if [ "${1:-}" = "--annotate" ]; then
    annotate="$(mkdir -p "$2" && cd "$2" && pwd)"
fi
source "$(dirname "$0")/lib/callgrind.sh"

tokens=$(callgrind_step --tokens tokens)
yaml=$(callgrind_step --tokens yaml)
printf '%-40s %14s\n' "5,000 tokens (.tokens.json)" "$tokens" "the same variables in YAML (baseline)" "$yaml"
awk -v t="$tokens" -v y="$yaml" 'BEGIN { printf "%-40s %14.2f\n", "ratio", t / y }'

if [ -n "$annotate" ]; then
    for side in tokens yaml; do
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$annotate/$side.out" \
            --toggle-collect='$s6Livery4SpecV4data6format6source8registry6limits13unknownTraits*' \
            "$work/LiveryBench" --tokens "$side" 2 >/dev/null 2>&1
    done
    echo "profiles of two reads each: $annotate/tokens.out $annotate/yaml.out"
fi
