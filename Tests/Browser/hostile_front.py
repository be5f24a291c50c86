"""A hostile front for the signed-delivery tests: an HTTP proxy between clients and a TUF
repository (the daemon's `/v1/tuf/`, or a static copy) that passes everything through, keeps
every version of each metadata file and target it passed, and, once told an `attack`, answers
what a compromised cache or CDN could:

- `flip`: a target with one byte flipped;
- `older-target`: an older version of the target asked for, as it passed earlier;
- `older-timestamp`: the oldest `timestamp.json` it passed (a rollback);
- `older-snapshot` / `older-targets`: an older snapshot or targets metadata for the one asked for;
- `freeze-timestamp`: `timestamp.json` as it was when the attack began, forever;
- `freeze`: the same, and every version signal (`…/version`) answered 304, nothing new, at once:
  a front holding a client on the version it has;
- `forge-timestamp`: `timestamp.json` with its expiry pushed a year on, its signatures kept.

It also keeps the `Livery-Client` header of each request, so a test sees what a client reported.

Run as a program (`python3 hostile_front.py UPSTREAM`, for the Swift tests) it prints its base
URL and serves until killed; `POST /hostile-front/attack/NAME` (or `.../attack/none`) begins an
attack.
"""

import http.server
import json
import re
import threading
import urllib.error
import urllib.request

ATTACKS = ("flip", "older-target", "older-timestamp", "older-snapshot", "older-targets", "freeze-timestamp", "freeze",
           "forge-timestamp")
FREEZING = ("freeze-timestamp", "freeze")
CONTROL = "/hostile-front/attack/"
FORWARDED = ("Livery-Client", "Authorization", "Accept", "If-None-Match")


def kind(path):
    """What `path` (without its query) is in a TUF repository: "timestamp", "snapshot",
    "targets", "root", "target:NAME", or None for anything else."""
    if path.endswith("/tuf/metadata/timestamp.json"):
        return "timestamp"
    match = re.search(r"/tuf/metadata/\d+\.(root|snapshot|targets)\.json$", path)
    if match:
        return match.group(1)
    match = re.search(r"/tuf/targets/[0-9a-f]{64}\.(.+)$", path)
    return f"target:{match.group(1)}" if match else None


class HostileFront:
    """The proxy, on its own loopback port, in front of `upstream` (a base URL)."""

    def __init__(self, upstream):
        self.upstream = upstream.rstrip("/")
        self.attack = None
        self.frozen = None
        self.lock = threading.Lock()
        self.seen = {}  # kind → bodies passed, oldest first
        self.reports = []  # (method, path, Livery-Client header) of each request, in order
        front = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                front._serve(self, "GET")

            def do_POST(self):
                if self.path.startswith(CONTROL):
                    front._control(self)
                else:
                    front._serve(self, "POST")

            def log_message(self, *arguments):
                pass

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass  # a page that navigates away drops its connections: not the test's failure

        self.server = Server(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def start(self, attack):
        """Begins `attack` (one of ATTACKS); `None` ends it."""
        assert attack is None or attack in ATTACKS, attack
        with self.lock:
            self.attack = attack
            timestamps = self.seen.get("timestamp", [])
            self.frozen = timestamps[-1] if attack in FREEZING and timestamps else None
        if attack in FREEZING:
            assert self.frozen is not None, f"{attack}: no timestamp.json passed yet"

    def _control(self, handler):
        """`POST /hostile-front/attack/NAME`: begins attack NAME (`none` ends it); 204, or 400."""
        name = handler.path[len(CONTROL):]
        try:
            self.start(None if name == "none" else name)
            handler.send_response(204)
        except AssertionError as error:
            handler.send_response(400)
            print(f"hostile front: {error}", flush=True)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def reported(self, text):
        """Whether a request's Livery-Client header contained `text`."""
        with self.lock:
            return any(text in header for _, _, header in self.reports)

    def _serve(self, handler, method):
        length = int(handler.headers.get("Content-Length") or 0)
        sent = handler.rfile.read(length) if length else None
        headers = {name: handler.headers[name] for name in FORWARDED if handler.headers[name] is not None}
        with self.lock:
            if "Livery-Client" in headers:
                self.reports.append((method, handler.path, headers["Livery-Client"]))
            frozen_signal = self.attack == "freeze" and handler.path.split("?")[0].endswith("/version")
        if frozen_signal:
            handler.send_response(304)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        request = urllib.request.Request(self.upstream + handler.path, data=sent, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, answer_headers, body = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, body = error.code, error.headers, error.read()
        if status == 200:
            body = self._tamper(kind(handler.path.split("?")[0]), body)
        handler.send_response(status)
        for name in ("Content-Type", "ETag", "Cache-Control", "Livery-Round"):
            if answer_headers.get(name) is not None:
                handler.send_header(name, answer_headers[name])
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def _tamper(self, what, body):
        """The body a client gets for a 200 of `what`, kept among those seen."""
        if what is None:
            return body
        with self.lock:
            seen = self.seen.setdefault(what, [])
            if body not in seen:
                seen.append(body)
            attack = self.attack
            older = next((earlier for earlier in seen if earlier != body), None)
            frozen = self.frozen
        if attack == "flip" and what.startswith("target:"):
            flipped = bytearray(body)
            flipped[len(flipped) // 2] ^= 0x01
            return bytes(flipped)
        if ((attack == "older-target" and what.startswith("target:"))
                or (attack == "older-timestamp" and what == "timestamp")
                or (attack == "older-snapshot" and what == "snapshot")
                or (attack == "older-targets" and what == "targets")):
            assert older is not None, f"{attack}: no older {what} passed before"
            return older
        if attack in FREEZING and what == "timestamp":
            return frozen
        if attack == "forge-timestamp" and what == "timestamp":
            forged = json.loads(body)
            forged["signed"]["expires"] = "2099-01-01T00:00:00Z"
            return json.dumps(forged).encode()
        return body

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":
    import sys

    front = HostileFront(sys.argv[1])
    print(front.base, flush=True)
    threading.Event().wait()
