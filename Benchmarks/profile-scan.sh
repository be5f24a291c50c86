#!/usr/bin/env bash
# Instructions per call of the raw path's request scan (`BundleRequestScan.scan`), by callgrind,
# for the request heads of `profile-serving.sh`'s 304 and gzip 304 modes, and of the admission's
# `Host` check (`RequestAdmission.decide` with a loopback daemon's names and no tokens: `host=`)
# for the values clients send; `any=` is `decide` where any name is accepted, so the difference
# is the check's own cost. LiveryHTTP's files and a small harness built with `swiftc -O -wmo`
# (seconds, no package build), run with 0 and with N calls of each; the difference over N.
# Instruction counts do not depend on the load.
#
#   Benchmarks/profile-scan.sh [N]     (N: 100000 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/Harness.swift" <<'SWIFT'
@_spi(LiveryInternal) import LiveryHTTP

@inline(never) func keep(_ result: BundleRequestScan.Result) -> Int {
    if case .bundle(let length, _, _, _, _, _, _, _) = result { return length }
    return -1
}

@inline(never) func keep(_ verdict: RequestAdmission.Verdict) -> Int {
    if case .admitted = verdict { return 1 }
    return 0
}

@main struct Harness {
    static func main() {
        let count = Int(CommandLine.arguments[1])!
        // "host=VALUE": a loopback daemon's names; "any=VALUE": any name accepted.
        let argument = CommandLine.arguments[2].split(separator: "=", maxSplits: 1)
        if argument.count == 2 {
            let names = argument[0] == "host" ? RequestAdmission.loopbackNames : nil
            let admission = RequestAdmission(hosts: names, tokens: [])
            var total = 0
            Array(argument[1].utf8).withUnsafeBytes { host in
                for _ in 0..<count {
                    total &+= keep(admission.decide(rawHost: host, rawAuthorization: nil, needsToken: true))
                }
            }
            print(total)
            return
        }
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
# LiveryHTTP as its own module, as in the package (its functions are called, not inlined into the
# harness): every file but the one that needs the Livery module, with Package.swift's import
# rule (the sources write `package import` where a package declaration exposes a module).
sources=$(ls Sources/LiveryHTTP/*.swift | grep -v 'SpecFormat+ContentType.swift')
(cd "$work" && swiftc -O -wmo -parse-as-library -enable-upcoming-feature InternalImportsByDefault \
    -package-name Livery -module-name LiveryHTTP -emit-module -emit-library -o libLiveryHTTP.so \
    $(printf "$OLDPWD/%s " $sources))
swiftc -O -wmo -parse-as-library -package-name Livery -module-name Harness -I "$work" -L "$work" -lLiveryHTTP \
    -Xlinker -rpath -Xlinker "$work" -o "$work/harness" "$work/Harness.swift"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/harness" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for mode in 304 gzip304; do
    base=$(instructions 0 "$mode")
    scans=$(instructions "$count" "$mode")
    echo "$mode: $(((scans - base) / count)) instructions per scan ($count scans)"
done
for host in any=127.0.0.1:7878 host=127.0.0.1 host=127.0.0.1:7878 host=localhost:7878 "host=[::1]:7878" \
    host=LocalHost:7878 host=evil.example; do
    base=$(instructions 0 "$host")
    calls=$(instructions "$count" "$host")
    echo "$host: $(((calls - base) / count)) instructions per decide ($count calls)"
done
