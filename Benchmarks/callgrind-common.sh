# Sourced by the callgrind-*.sh scripts: the release LiveryBench (LIVERY_BENCH_SCRATCH=DIR builds
# in another scratch folder, as scripts/bench does), copied without its debug information
# (valgrind 3.19 cannot read the DWARF of Swift 6.3 binaries; symbols stay), and `instructions
# ARGUMENTS…`: the instructions callgrind counts in one run of it.
cd "$(dirname "$0")/.."
binary="${LIVERY_BENCH_SCRATCH:-.build}/release/LiveryBench"
[ -x "$binary" ] || { echo "no $binary: build it with swift build -c release --product LiveryBench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/LiveryBench" "$binary"

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/LiveryBench" "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
