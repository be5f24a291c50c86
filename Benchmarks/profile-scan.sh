#!/usr/bin/env bash
# Instructions per call of the raw path's request scan (`BundleRequestScan.scan`), by callgrind,
# for the request heads of `profile-serving.sh`'s 304 and gzip 304 modes: LiveryHTTP's files and
# a small harness built with `swiftc -O -wmo` (seconds, no package build), run with 0 and with N
# scans of each head; the difference over N. Instruction counts do not depend on the load.
#
#   Benchmarks/profile-scan.sh [N]     (N: 100000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/Harness.swift" <<'SWIFT'
@inline(never) func keep(_ result: BundleRequestScan.Result) -> Int {
    if case .bundle(let length, _, _, _, _, _, _, _) = result { return length }
    return -1
}

@main struct Harness {
    static func main() {
        let count = Int(CommandLine.arguments[1])!
        let gzip = CommandLine.arguments[2] == "gzip304"
        let head =
            "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (gzip ? "Accept-Encoding: gzip\r\n" : "")
            + "If-None-Match: \"0123456789abcdef\"\r\n\r\n"
        var total = 0
        Array(head.utf8).withUnsafeBytes { bytes in
            for _ in 0..<count { total &+= keep(BundleRequestScan.scan(bytes, maxHeadBytes: 8192)) }
        }
        print(total)
    }
}
SWIFT
# Every file of LiveryHTTP but the one that needs the Livery module, with Package.swift's import
# rule (the sources write `package import` where a package declaration exposes a module).
sources=$(ls Sources/LiveryHTTP/*.swift | grep -v 'SpecFormat+ContentType.swift')
swiftc -O -wmo -parse-as-library -enable-upcoming-feature InternalImportsByDefault -package-name Livery \
    -module-name Harness -o "$work/harness" $sources "$work/Harness.swift"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/harness" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for mode in 304 gzip304; do
    base=$(instructions 0 "$mode")
    scans=$(instructions "$count" "$mode")
    echo "$mode: $(((scans - base) / count)) instructions per scan ($count scans)"
done
