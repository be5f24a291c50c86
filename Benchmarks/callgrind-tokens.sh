#!/usr/bin/env bash
# Figure 11 in instructions, counted by callgrind: the release LiveryBench generates figure 11's
# 5,000-token document and its YAML twin, then reads one of them with Spec(data:format:source:)
# 6 and then 2 times; (Ir(6) − Ir(2)) / 4 is one read, generating the documents cancelling out.
# Deterministic, so unlike a wall time it does not depend on what else the machine runs.
# Then the allocations of one read, counted by DHAT the same way: blocks and bytes allocated
# (each block is also freed, when the spec is dropped). A read that allocates and frees more
# touches more cold memory, which costs wall time that instructions do not show.
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

# "BYTES BLOCKS" allocated by one read of SIDE: DHAT's totals at 6 reads less those at 2, over 4.
dhat_step() {
    local six two
    six=$(dhat_totals "$1" 6)
    two=$(dhat_totals "$1" 2)
    awk -v s="$six" -v t="$two" 'BEGIN { split(s, a); split(t, b); printf "%d %d", (a[1] - b[1]) / 4, (a[2] - b[2]) / 4 }'
}
dhat_totals() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=dhat --dhat-out-file=/dev/null "$work/LiveryBench" --tokens "$1" "$2" 2>&1 \
        | sed -n 's/.*Total: *\([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' | tr -d ,
}
for side in tokens yaml; do
    read -r bytes blocks <<<"$(dhat_step "$side")"
    printf '%-40s %14s blocks, %s bytes\n' "allocated by one read ($side)" "$blocks" "$bytes"
done

if [ -n "$annotate" ]; then
    for side in tokens yaml; do
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$annotate/$side.out" \
            --toggle-collect='$s6Livery4SpecV4data6format6source8registry6limits13unknownTraits*' \
            "$work/LiveryBench" --tokens "$side" 2 >/dev/null 2>&1
    done
    echo "profiles of two reads each: $annotate/tokens.out $annotate/yaml.out"
fi
