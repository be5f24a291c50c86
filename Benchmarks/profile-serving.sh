#!/usr/bin/env bash
# Instructions per request of the daemon's serving path, by callgrind: figure 3's daemon
# (`LiveryBench --serve`) under valgrind answers N keep-alive GETs of /v1/spec (or of PATH, such
# as /v1/css: figure 10's serving rows) on 8 connections, one request in flight on each, after
# 400 of warm-up; only those N are counted. Instructions are not slowed by what else the machine
# runs, so two builds compare on a loaded machine (to the instruction with CONNECTIONS=1, below).
#
#   Benchmarks/profile-serving.sh BINARY MODE N OUT [PATH]
#     BINARY  a release LiveryBench (e.g. .build-release/release/LiveryBench)
#     MODE    304 | 200 | gzip200 | gzip304
#     OUT     callgrind output file; prints the instructions per request
#     PATH    /v1/spec (the default) or /v1/css
#   CONNECTIONS=C (environment; 8 by default) connections instead. With 1 every request is one
#   turn of the event loop, so two builds compare to the instruction; with 8 how many requests
#   one turn finds depends on how fast the client runs beside valgrind, which moves the count
#   by several hundred instructions a request from one run to the next.
set -euo pipefail
[ $# -eq 4 ] || [ $# -eq 5 ] || { echo "usage: $0 BINARY 304|200|gzip200|gzip304 N OUT [/v1/spec|/v1/css]" >&2; exit 2; }
binary=$1 mode=$2 count=$3 out=$4 path=${5:-/v1/spec}
work=$(mktemp -d)
pid=
# valgrind goes with the script however it ends (a client that fails included).
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF of Swift 6.3 binaries; symbols stay.
strip --strip-debug -o "$work/LiveryBench" "$binary"
rm -f "$out" "$out".*
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
    "$work/LiveryBench" --serve 3600 >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q '^port ' "$work/serve.log" && break; sleep 0.5; done
port=$(grep '^port ' "$work/serve.log" | cut -d' ' -f2)
[ -n "$port" ] || { cat "$work/serve.log" >&2; exit 1; }

client() {
    python3 - "$port" "$1" "$mode" "$path" "${CONNECTIONS:-8}" <<'PY'
import socket, sys, time
port, n, mode, path, connections = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4].encode(), int(sys.argv[5])

def read_answer(s, buf):
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk: sys.exit("the daemon closed the connection")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    fields = dict((k.strip().lower(), v.strip()) for k, _, v in (l.partition(b":") for l in head.split(b"\r\n")[1:]))
    length = 0 if head[9:12] == b"304" else int(fields.get(b"content-length", b"0"))
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk: sys.exit("the daemon closed the connection in a body")
        rest += chunk
    return int(head[9:12]), fields, rest[length:]

gzip = mode.startswith("gzip")
extra = b"Accept-Encoding: gzip\r\n" if gzip else b""
# The port is printed before the first bundle is loaded (slow under valgrind): ask until a 200
# with its ETag, so that the 304 modes send one.
for attempt in range(600):
    first = socket.create_connection(("127.0.0.1", port))
    first.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra + b"\r\n")
    status, fields, _ = read_answer(first, b"")
    first.close()
    if status == 200 and b"etag" in fields: break
    time.sleep(0.5)
else:
    sys.exit(f"the daemon never served a bundle with an ETag (last answer {status})")
if mode.endswith("304"): extra += b"If-None-Match: " + fields[b"etag"] + b"\r\n"
request = b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + b"\r\n"
expected = 304 if mode.endswith("304") else 200
sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(connections)]
buffers = [b""] * connections
done = 0
while done < n:
    batch = min(connections, n - done)
    for s in sockets[:batch]: s.sendall(request)
    for i in range(batch):
        status, _, buffers[i] = read_answer(sockets[i], buffers[i])
        if status != expected: sys.exit(f"expected {expected}, got {status}")
    done += batch
PY
}

client 400
callgrind_control -i on $pid >/dev/null
client "$count"
callgrind_control -i off $pid >/dev/null
callgrind_control -d $pid >/dev/null
kill -9 $pid
wait $pid 2>/dev/null || true
instructions=$(callgrind_annotate "$out".1 | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
echo "$path $mode: $((instructions / count)) instructions per request ($instructions for $count; $out.1)"
