#!/usr/bin/env bash
# Figure 3's daemon of two builds, A and B, side by side under the same wrk: how B's requests per
# second and CPU time per request compare with A's, to about 1 %. Both daemons
# (`LiveryBench --serve`) start once, pinned to one CPU; wrk runs pinned to another. Each round
# runs wrk against A and B in turn, in the order A B, then B A in the next round (so a drift of
# the machine's load during a round weighs on both sides alike), after a warm-up of each. A
# round gives B/A of requests per second and of the daemon's CPU time per request (the sum of
# its threads' run time from /proc/PID/task/*/schedstat, in nanoseconds; time other processes
# take from its CPU does not count in it). Printed per mode: each round's ratios, their median
# and their spread (lowest … highest).
#
#   Benchmarks/ab-serving.sh A_BINARY B_BINARY [ROUNDS]
#     A_BINARY, B_BINARY  release LiveryBench builds (the same file twice measures the noise floor)
#     ROUNDS              rounds per mode (9 by default)
#   Environment: MODES ("304 200 gzip200 gzip304"), SECONDS_PER_RUN (8), WARMUP_SECONDS (3),
#   CONNECTIONS (64), DAEMON_CPU (0), WRK_CPU (1), PATH_SERVED (/v1/spec).
#
# Read the A = B spread first: a difference between two builds smaller than it is not shown.
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 A_BINARY B_BINARY [ROUNDS]" >&2; exit 2; }
a_binary=$1 b_binary=$2 rounds=${3:-9}
modes=${MODES:-304 200 gzip200 gzip304}
seconds=${SECONDS_PER_RUN:-8} warmup=${WARMUP_SECONDS:-3} connections=${CONNECTIONS:-64}
daemon_cpu=${DAEMON_CPU:-0} wrk_cpu=${WRK_CPU:-1} path=${PATH_SERVED:-/v1/spec}
for tool in wrk taskset curl; do
    command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
for binary in "$a_binary" "$b_binary"; do [ -x "$binary" ] || { echo "no executable $binary" >&2; exit 1; }; done

work=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# Starts a daemon pinned to the daemon's CPU; sets `started_pid` and `started_port`.
start() {
    taskset -c "$daemon_cpu" "$1" --serve 86400 >"$work/$2.log" 2>&1 &
    started_pid=$!
    pids+=("$started_pid")
    for _ in $(seq 300); do grep -q '^port ' "$work/$2.log" && break; sleep 0.1; done
    started_port=$(sed -n 's/^port //p' "$work/$2.log")
    [ -n "$started_port" ] || { cat "$work/$2.log" >&2; exit 1; }
}
start "$a_binary" a
a_pid=$started_pid a_port=$started_port
start "$b_binary" b
b_pid=$started_pid b_port=$started_port

# The daemon's CPU time so far, in nanoseconds: the first field of each thread's schedstat.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ sum += $1 } END { printf "%.0f", sum }'; }

# The ETag of the daemon's answer (the gzip one with `Accept-Encoding: gzip`), once it has one.
etag() {
    local port=$1 value
    shift
    for _ in $(seq 100); do
        value=$(curl -s -D - -o /dev/null "$@" "http://127.0.0.1:$port$path" | tr -d '\r' \
            | awk -F': ' 'tolower($1) == "etag" { print $2 }')
        [ -n "$value" ] && { echo "$value"; return; }
        sleep 0.1
    done
    echo "no ETag from the daemon on port $port" >&2
    exit 1
}

# The request headers of a mode for the daemon on `port`, one per line, in `headers`.
headers_for() {
    local mode=$1 port=$2
    headers=()
    [[ $mode == gzip* ]] && headers+=(-H 'Accept-Encoding: gzip')
    if [[ $mode == *304 ]]; then
        local curl_headers=()
        [[ $mode == gzip* ]] && curl_headers=(-H 'Accept-Encoding: gzip')
        local tag
        tag=$(etag "$port" "${curl_headers[@]}")
        headers+=(-H "If-None-Match: $tag")
    fi
    # Every answer must be the one the mode is about (a 304 mode that got 200s measures 200s).
    local status
    status=$(curl -s -o /dev/null -w '%{http_code}' "${headers[@]}" "http://127.0.0.1:$port$path")
    [ "$status" = "${mode: -3}" ] || { echo "mode $mode: the daemon on port $port answered $status" >&2; exit 1; }
}

# One wrk run against `port` for `duration`; prints "requests/s ns-of-daemon-CPU-per-request".
run() {
    local port=$1 pid=$2 duration=$3 before after output requests
    before=$(cpu_ns "$pid")
    output=$(taskset -c "$wrk_cpu" wrk -t1 -c"$connections" -d"${duration}s" --timeout 10s "${headers[@]}" \
        "http://127.0.0.1:$port$path")
    after=$(cpu_ns "$pid")
    # Refused, reset or wrong answers end the comparison; a timeout (an answer slower than 10 s,
    # on a machine too loaded to measure) is only reported.
    if grep -q -e 'Non-2xx' -e 'connect [1-9]' -e 'read [1-9]' -e 'write [1-9]' <<<"$output"; then
        echo "wrk reported errors against port $port:" >&2
        echo "$output" >&2
        exit 1
    fi
    grep 'Socket errors' <<<"$output" >&2 || true
    requests=$(awk '/requests in/ { print $1 }' <<<"$output")
    awk -v out="$output" -v cpu=$((after - before)) -v n="$requests" 'BEGIN {
        match(out, /Requests\/sec: *[0-9.]+/); split(substr(out, RSTART, RLENGTH), f, ":")
        printf "%.0f %.1f\n", f[2] + 0, cpu / n }'
}

# Median and spread of the numbers on standard input.
summary() {
    sort -g | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "median %.3f  spread %.3f … %.3f", m, v[1], v[NR] }'
}

echo "A $a_binary (port $a_port)"
echo "B $b_binary (port $b_port)"
echo "daemons on CPU $daemon_cpu, wrk -t1 -c$connections on CPU $wrk_cpu, ${seconds}s a run, $rounds rounds"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in $modes; do
    headers_for "$mode" "$a_port"
    a_headers=("${headers[@]}")
    headers_for "$mode" "$b_port"
    b_headers=("${headers[@]}")
    headers=("${a_headers[@]}")
    run "$a_port" "$a_pid" "$warmup" >/dev/null
    headers=("${b_headers[@]}")
    run "$b_port" "$b_pid" "$warmup" >/dev/null
    : >"$work/rate" && : >"$work/cpu"
    for round in $(seq "$rounds"); do
        order="a b"
        [ $((round % 2)) -eq 0 ] && order="b a"
        for side in $order; do
            if [ "$side" = a ]; then
                headers=("${a_headers[@]}")
                result=$(run "$a_port" "$a_pid" "$seconds")
                read -r a_rate a_cpu <<<"$result"
            else
                headers=("${b_headers[@]}")
                result=$(run "$b_port" "$b_pid" "$seconds")
                read -r b_rate b_cpu <<<"$result"
            fi
        done
        rate_ratio=$(awk -v a="$a_rate" -v b="$b_rate" 'BEGIN { printf "%.4f", b / a }')
        cpu_ratio=$(awk -v a="$a_cpu" -v b="$b_cpu" 'BEGIN { printf "%.4f", b / a }')
        echo "$rate_ratio" >>"$work/rate" && echo "$cpu_ratio" >>"$work/cpu"
        printf '%-8s round %2d  A %7d req/s %7.0f ns/req  B %7d req/s %7.0f ns/req  B/A rate %s cpu %s  load %s\n' \
            "$mode" "$round" "$a_rate" "$a_cpu" "$b_rate" "$b_cpu" "$rate_ratio" "$cpu_ratio" \
            "$(cut -d' ' -f1 /proc/loadavg)"
    done
    echo "$mode  B/A req/s: $(summary <"$work/rate")   B/A CPU per request: $(summary <"$work/cpu")"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
