# Sourced by Benchmarks/callgrind-*.sh: the release LiveryBench, stripped for valgrind, and
# `callgrind_total ARGS…`, the instructions of one run of it with ARGS.
# Needs valgrind and the release LiveryBench (scripts/bench builds it; LIVERY_BENCH_SCRATCH=DIR as there).
cd "$(dirname "$0")/.."
binary="${LIVERY_BENCH_SCRATCH:-.build}/release/LiveryBench"
[ -x "$binary" ] || { echo "no $binary: build it with swift build -c release --product LiveryBench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

# valgrind 3.19 cannot read the DWARF of Swift 6.3 binaries (as in profile-serving.sh); symbols stay.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/LiveryBench" "$binary"

# Total instructions of one run. Deterministic hashing: with a random seed per process, the
# set-up's dictionaries cost different amounts in two runs, by as much as a thousand
# instructions per target after the division.
callgrind_total() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/LiveryBench" "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# Instructions of one step of a run that takes its step count last: (Ir(6) − Ir(2)) / 4, so
# whatever the run does once (start, set-up) cancels out. `callgrind_step ARGS…` runs ARGS 6 and ARGS 2.
callgrind_step() {
    local six two
    six=$(callgrind_total "$@" 6)
    two=$(callgrind_total "$@" 2)
    echo $(((six - two) / 4))
}
