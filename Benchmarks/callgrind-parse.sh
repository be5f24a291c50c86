#!/usr/bin/env bash
# Figure 5's full reads in instructions, counted by callgrind: the release LiveryBench generates
# figure 5's 1 MiB document in one syntax, then reads it 6 and then 2 times (`--parses SIDE
# COUNT`); (Ir(6) − Ir(2)) / 4 is one read, generating the document cancelling out.
# Deterministic, so unlike the figure's wall times it does not depend on what else the machine runs.
#
#   Benchmarks/callgrind-parse.sh                  Spec(data:) of the JSON and the YAML, the
#                                                  JSON row's baseline, and the JSON ratio
#   Benchmarks/callgrind-parse.sh --annotate DIR   also one profile of each Spec(data:) in DIR
#                                                  (json.out, yaml.out: callgrind_annotate them)
#
# Needs valgrind and the release LiveryBench (scripts/bench builds it; LIVERY_BENCH_SCRATCH=DIR as there).
set -euo pipefail
annotate=""
if [ "${1:-}" = "--annotate" ]; then
    annotate="$(mkdir -p "$2" && cd "$2" && pwd)"
fi
source "$(dirname "$0")/lib/callgrind.sh"

json=$(callgrind_step --parses json)
foundation=$(callgrind_step --parses foundation)
yaml=$(callgrind_step --parses yaml)
printf '%-46s %14s\n' "JSON 1 MiB: Spec(data:format:source:)" "$json" \
    "JSON 1 MiB: JSONSerialization.jsonObject" "$foundation" "YAML 1 MiB: Spec(data:format:source:)" "$yaml"
awk -v j="$json" -v f="$foundation" 'BEGIN { printf "%-46s %14.2f\n", "JSON ratio", j / f }'

if [ -n "$annotate" ]; then
    for side in json yaml; do
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$annotate/$side.out" \
            --toggle-collect='$s6Livery4SpecV4data6format6source8registry6limits13unknownTraits*' \
            "$work/LiveryBench" --parses "$side" 2 >/dev/null 2>&1
    done
    echo "profiles of two reads each: $annotate/json.out $annotate/yaml.out"
fi
