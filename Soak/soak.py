#!/usr/bin/env python3
"""The load of scripts/soak against a running `livery serve` on loopback.

Holds LONG_POLL long-poll clients (`GET /v1/spec?wait=30s` with `If-None-Match`) and SSE
clients (`GET /v1/events`), each on its own keep-alive connection; runs wrk (Soak/conditional-get.lua)
for the conditional GETs; pushes a new version of `soak.yaml` every PUSH_INTERVAL; samples the
daemon's VmRSS every second. When the time is up it stops pushing, reads the final bundle's
ETag, gives every client GRACE seconds to reach it, prints a summary and exits 1 if a pass
criterion failed: a 5xx anywhere, a client (or wrk thread) not on the final version, a dropped
connection or refused push, resident memory growing (see RSS_GROWTH_LIMIT), or a load target
(held clients, conditional GETs a second, pushes a second) missed by more than 20 % (LOAD_FLOOR).

Plain asyncio and raw HTTP/1.1 so that nothing needs building: the point is the daemon.
"""
import argparse
import asyncio
import collections
import os
import signal
import statistics
import sys
import time

# The last third's median RSS may exceed the first third's by at most this fraction. The first
# third already holds every connection and a few hundred bundles, so what remains is allocator
# noise (a few MB); a leak of even 100 bytes per request at this load (about 10,000 requests
# and events a second) adds about 1 MB/s and fails a 60-second run by far.
RSS_GROWTH_LIMIT = 0.20

# A soak that did not create its load proves nothing about that load: each target (held
# clients, conditional GETs a second, pushes a second) must be reached to at least this
# fraction, or the run fails naming the shortfall.
LOAD_FLOOR = 0.80


def shortfalls(targets, achieved, floor=LOAD_FLOOR):
    """One line per load target reached to less than `floor`: what, achieved, target, how short.

    `targets` and `achieved` map a name ("conditional GETs/s") to a number.
    """
    lines = []
    for name, target in targets.items():
        value = achieved[name]
        if value < floor * target:
            shown = f"{value:,.0f}" if value >= 100 else f"{value:.1f}"
            lines.append(f"{name}: {shown} of {target:,.0f} ({100 * value / target:.1f} % of target, "
                         f"{100 * (1 - value / target):.1f} % short; at least {100 * floor:.0f} % needed)")
    return lines


class Stats:
    def __init__(self):
        self.statuses = collections.Counter()  # (kind, status) → count
        self.connection_errors = collections.Counter()
        self.events = 0

    def count(self, kind, status):
        self.statuses[(kind, status)] += 1


async def read_head(reader):
    """Status code and lower-cased headers of one response."""
    line = await reader.readline()
    if not line:
        raise ConnectionError("closed by the server")
    status = int(line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader, headers):
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        async for chunk in chunks(reader):
            body += chunk
        return body
    return b""


async def chunks(reader):
    """The chunks of a chunked body, until the last (empty) one."""
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        data = await reader.readexactly(size + 2)
        if size == 0:
            return
        yield data[:-2]


class Soak:
    def __init__(self, args):
        self.args = args
        self.stats = Stats()
        self.long_poll_tags = [None] * args.long_poll
        self.sse_tags = [None] * args.sse
        self.rss = []
        self.pushes = collections.Counter()
        self.held_at_start = 0

    async def connect(self):
        return await asyncio.open_connection(self.args.host, self.args.port)

    async def long_poll(self, index):
        etag = None
        while True:
            try:
                reader, writer = await self.connect()
                while True:
                    condition = f"If-None-Match: {etag}\r\n" if etag else ""
                    writer.write(f"GET /v1/spec?wait=30s HTTP/1.1\r\nHost: 127.0.0.1\r\n{condition}\r\n".encode())
                    status, headers = await read_head(reader)
                    await read_body(reader, headers)
                    self.stats.count("long-poll", status)
                    if status == 200:
                        etag = headers.get("etag", etag)
                        self.long_poll_tags[index] = etag
                    elif status != 304:
                        await asyncio.sleep(1)
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                self.stats.connection_errors[f"long-poll: {type(error).__name__}"] += 1
                await asyncio.sleep(1)

    async def server_sent_events(self, index):
        while True:
            try:
                reader, writer = await self.connect()
                writer.write(b"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                status, headers = await read_head(reader)
                self.stats.count("events", status)
                if status != 200:
                    await read_body(reader, headers)
                    await asyncio.sleep(1)
                    continue
                buffer = b""
                async for chunk in chunks(reader):
                    buffer += chunk
                    *frames, buffer = buffer.split(b"\n\n")
                    for frame in frames:
                        for line in frame.split(b"\n"):
                            if line.startswith(b"id: "):
                                self.sse_tags[index] = line[4:].decode()
                                self.stats.events += 1
                raise ConnectionError("the event stream ended")
            except (ConnectionError, asyncio.IncompleteReadError, OSError, ValueError) as error:
                self.stats.connection_errors[f"events: {type(error).__name__}"] += 1
                await asyncio.sleep(1)

    async def push(self, until):
        """A new version of soak.yaml every push interval, on one keep-alive connection."""
        reader, writer = await self.connect()
        version = 0
        next_push = time.monotonic()
        while time.monotonic() < until:
            version += 1
            body = f"specs:\n  soak.counter:\n    - {{ type: CornerRadius, radius: {version} }}\n".encode()
            writer.write(
                (f"PUT /v1/specs/soak.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {self.args.token}\r\n"
                 f"Content-Type: application/yaml\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
            status, headers = await read_head(reader)
            await read_body(reader, headers)
            self.pushes[status] += 1
            next_push += self.args.push_interval
            await asyncio.sleep(max(0, next_push - time.monotonic()))
        writer.close()

    async def sample_rss(self):
        while True:
            with open(f"/proc/{self.args.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        self.rss.append(int(line.split()[1]) / 1024)
            await asyncio.sleep(1)

    async def throttle(self, until):
        """Makes the daemon artificially slow: stopped for `--throttle` of every 100 ms until
        `until`, so that a test can see the soak fail on the load it could not create."""
        period = 0.1
        try:
            while time.monotonic() < until:
                os.kill(self.args.pid, signal.SIGSTOP)
                await asyncio.sleep(period * self.args.throttle)
                os.kill(self.args.pid, signal.SIGCONT)
                await asyncio.sleep(period * (1 - self.args.throttle))
        finally:
            os.kill(self.args.pid, signal.SIGCONT)

    async def current_etag(self):
        reader, writer = await self.connect()
        writer.write(b"GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        status, headers = await read_head(reader)
        await read_body(reader, headers)
        writer.close()
        self.stats.count("final", status)
        return headers.get("etag")

    def clients_on(self, etag):
        return (sum(tag == etag for tag in self.long_poll_tags), sum(tag == etag for tag in self.sse_tags))

    async def run(self):
        args = self.args
        tasks = [asyncio.create_task(self.long_poll(i)) for i in range(args.long_poll)]
        tasks += [asyncio.create_task(self.server_sent_events(i)) for i in range(args.sse)]
        # Every held client has the first bundle before the clock starts.
        first = await self.current_etag()
        deadline = time.monotonic() + 30
        while self.clients_on(first) != (args.long_poll, args.sse) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        self.held_at_start = sum(self.clients_on(first))
        print(f"soak: {self.held_at_start} held clients connected; load for {args.seconds}s", file=sys.stderr)
        tasks.append(asyncio.create_task(self.sample_rss()))
        # wrk outlives the pushes by a few seconds so that each of its threads sees the last one.
        wrk = await asyncio.create_subprocess_exec(
            "wrk", f"-t{args.wrk_threads}", f"-c{args.wrk_connections}", f"-d{args.seconds + 3}s",
            "-s", args.wrk_script, f"http://{args.host}:{args.port}/v1/spec", "--", str(args.wrk_delay_ms),
            stdout=asyncio.subprocess.PIPE)
        start = time.monotonic()
        throttle = asyncio.create_task(self.throttle(until=start + args.seconds)) if args.throttle else None
        await self.push(until=start + args.seconds)
        if throttle:
            await throttle
        wrk_output = (await wrk.communicate())[0].decode()
        final = await self.current_etag()
        deadline = time.monotonic() + args.grace
        while self.clients_on(final) != (args.long_poll, args.sse) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        elapsed = time.monotonic() - start
        for task in tasks:
            task.cancel()
        return self.report(final, wrk_output, elapsed)

    def report(self, final, wrk_output, elapsed):
        args = self.args
        failures = []
        wrk_threads = [dict(pair.split("=", 1) for pair in line.split()[1:])
                       for line in wrk_output.splitlines() if line.startswith("soak-wrk ")]
        wrk_summary = next((dict(pair.split("=", 1) for pair in line.split()[1:])
                            for line in wrk_output.splitlines() if line.startswith("soak-wrk-summary")), {})
        if not wrk_threads:
            failures.append("wrk printed no results:\n" + wrk_output)
        by_status = collections.Counter()
        for (kind, status), count in self.stats.statuses.items():
            by_status[status] += count
        for thread in wrk_threads:
            by_status[200] += int(thread["ok"])
            by_status[304] += int(thread["not_modified"])
            by_status["5xx (wrk)"] += int(thread["server_errors"])
            by_status["other (wrk)"] += int(thread["other"])
        for status, count in self.pushes.items():
            by_status[status] += count
        server_errors = sum(count for status, count in by_status.items()
                            if (isinstance(status, int) and status >= 500) or status == "5xx (wrk)")
        if server_errors:
            failures.append(f"{server_errors} responses with a 5xx status")
        refused = sum(count for status, count in self.pushes.items() if status not in (200, 201))
        if refused:
            failures.append(f"{refused} pushes refused: {dict(self.pushes)}")
        if self.stats.connection_errors:
            failures.append(f"dropped connections: {dict(self.stats.connection_errors)}")
        if int(wrk_summary.get("socket_errors", 0)):
            kinds = {kind: wrk_summary[kind] for kind in ("connect", "read", "write", "timeout")}
            failures.append(f"wrk socket errors: {kinds} (timeout: no answer within wrk's 2 s)")
        long_poll_on, sse_on = self.clients_on(final)
        wrk_on = sum(thread["etag"] == final for thread in wrk_threads)
        if (long_poll_on, sse_on, wrk_on) != (args.long_poll, args.sse, len(wrk_threads)):
            failures.append("clients not on the final version")
        third = len(self.rss) // 3
        first_third = statistics.median(self.rss[:third]) if third else 0
        last_third = statistics.median(self.rss[-third:]) if third else 0
        if third == 0:
            failures.append("too few RSS samples")
        elif last_third > first_third * (1 + RSS_GROWTH_LIMIT):
            failures.append(f"resident memory grew {100 * (last_third / first_third - 1):.0f}% "
                            f"(limit {100 * RSS_GROWTH_LIMIT:.0f}%)")
        wrk_requests = int(wrk_summary.get("requests", 0))
        requests = sum(self.stats.statuses.values()) + wrk_requests + sum(self.pushes.values())
        pushes_ok = sum(count for status, count in self.pushes.items() if status in (200, 201))
        targets = {"held clients": args.long_poll + args.sse,
                   "conditional GETs/s": args.target_gets_per_second,
                   "pushes/s": 1 / args.push_interval}
        achieved = {"held clients": self.held_at_start,
                    "conditional GETs/s": wrk_requests / (args.seconds + 3),
                    "pushes/s": pushes_ok / args.seconds}
        short = shortfalls(targets, achieved)
        failures += [f"load below target: {line}" for line in short]
        load = "\n".join(f"  {name + ':':20} {achieved[name]:,.1f} achieved, target {target:,.0f} "
                         f"({100 * achieved[name] / target:.0f} %)" for name, target in targets.items())
        print(f"""
== soak summary ({args.seconds}s of load, {elapsed:.0f}s with the final check)
build soaked:        {args.build}{f" (daemon stopped {100 * args.throttle:.0f} % of the time: artificially slow)" if args.throttle else ""}
load (fails below {100 * LOAD_FLOOR:.0f} % of a target):
{load}
requests:            {requests} ({requests / elapsed:.0f}/s), of which conditional GETs (wrk) {wrk_requests} ({wrk_requests / (args.seconds + 3):.0f}/s)
responses by status: {", ".join(f"{status}: {count}" for status, count in sorted(by_status.items(), key=str))}
server errors (5xx): {server_errors}
pushes:              {pushes_ok} accepted of {sum(self.pushes.values())} ({dict(self.pushes)})
SSE events received: {self.stats.events}
final version:       {final}
on it:               long-poll {long_poll_on}/{args.long_poll}, SSE {sse_on}/{args.sse}, wrk threads {wrk_on}/{len(wrk_threads)}
daemon VmRSS:        median {statistics.median(self.rss) if self.rss else 0:.1f} MB, max {max(self.rss, default=0):.1f} MB, first-third median {first_third:.1f} MB, last-third median {last_third:.1f} MB (limit +{100 * RSS_GROWTH_LIMIT:.0f}%), {len(self.rss)} samples
VmRSS every 10 s:    {" ".join(f"{sample:.0f}" for sample in self.rss[::10])} MB
result:              {"PASS" if not failures else "FAIL: " + "; ".join(failures)}""")
        return 0 if not failures else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the daemon's process, for VmRSS")
    parser.add_argument("--token", required=True)
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--long-poll", type=int, default=500)
    parser.add_argument("--sse", type=int, default=500)
    parser.add_argument("--push-interval", type=float, default=0.1)
    parser.add_argument("--grace", type=float, default=20, help="seconds for clients to reach the final version")
    parser.add_argument("--wrk-script", required=True)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--wrk-connections", type=int, default=40)
    parser.add_argument("--wrk-delay-ms", type=int, default=10, help="per connection: about 2,000 GETs/s in all with 40 connections at ≈ 10 ms latency under the soak's load")
    parser.add_argument("--target-gets-per-second", type=float, default=2000,
                        help="the conditional GETs a second the run must reach (80 %% of it at least)")
    parser.add_argument("--build", default="unknown", help="the build configuration of the daemon, for the summary")
    parser.add_argument("--throttle", type=float, default=0,
                        help="stop the daemon this fraction of every 100 ms during the load (tests of the accounting)")
    args = parser.parse_args()
    if not 0 <= args.throttle < 1:
        parser.error(f"--throttle {args.throttle}: expected a fraction from 0 up to (not including) 1")
    sys.exit(asyncio.run(Soak(args).run()))


if __name__ == "__main__":
    main()
