"""Helpers of the web page tests (test_web_page*.py): a daemon on a port the test chooses (so it
can be stopped and started again), a static server on another port (another origin), a test
page with one element per identifier, what a browser computes for them, what StyleOracle
says a Swift StyledBox gets, and a proxy that stands for the network between page and daemon."""

import json
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

import tinycss2

from conftest import BUILD, ROOT, TOKEN, Daemon, Lines, free_port

WEB_SPECS = pathlib.Path(__file__).resolve().parent / "web_specs"


class WebDaemon(Daemon):
    """`livery serve` of `folder` on `port`, allowing `origin`."""

    def __init__(self, folder, port, origin):
        self.folder = folder
        token_file = folder.parent / "token"
        token_file.write_text(TOKEN)
        token_file.chmod(0o600)
        self.process = subprocess.Popen(
            [str(BUILD / "livery"), "serve", str(folder), "--port", str(port), "--token-file", str(token_file),
             "--allow-origin", origin, "--state-dir", str(folder.parent / "state"), "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = Lines(self.process)
        self.lines.wait_for(r"serving .* on http://127\.0\.0\.1:(\d+)")
        self.base = f"http://127.0.0.1:{port}"


class StaticServer:
    """Python's http.server on `folder`: a plain static server, on its own port."""

    def __init__(self, folder):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "--directory", str(folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.origin = f"http://127.0.0.1:{self.port}"
        import time
        import urllib.request
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.origin + "/", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the static server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def oracle(folder):
    """What StyledBoxes get from `folder`: {"themes": [...], "looks": {theme or "": {identifier: box}}}."""
    output = subprocess.run([str(BUILD / "StyleOracle"), str(folder)], check=True, capture_output=True, timeout=60)
    return json.loads(output.stdout)


# A StyledBox's defaults, as the page's own stylesheet (specificity 0, so every Livery rule wins).
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Livery web page test</title>
<style>
  :where(.box) {
    display: block; margin: 4px; min-height: 10px;
    background-color: #FFFFFF; color: #000000; border-radius: 0; border-style: none;
    border-color: transparent; border-width: 0; opacity: 1; padding: 0; box-shadow: none;
    font-family: system-ui; font-size: 17px; font-weight: 400;
    --constant: 0; --retries: 3; --timeout: 1.5; --label: "";
  }
</style>
<script type="module">
  const query = new URLSearchParams(location.search);
  const daemon = query.get("daemon");
  const { follow } = await import(`${daemon}/v1/livery.js`);
  window.updates = [];
  window.errors = 0;
  window.livery = follow(daemon, {
    name: "web-test", wait: Number(query.get("wait") ?? 2), mode: query.get("mode") ?? undefined, instance: query.get("instance") ?? undefined,
    onUpdate: ({ version }) => window.updates.push({ version, at: performance.now() }),
    onError: () => { window.errors += 1; },
  });
</script>
</head>
<body>
BOXES
</body>
</html>
"""


def write_page(folder, identifiers):
    """index.html with one `.box` element per identifier."""
    boxes = "\n".join(
        f'<div class="box" id="box-{index}" data-livery="{identifier.replace("&", "&amp;").replace(chr(34), "&quot;").replace("<", "&lt;")}">{index}</div>'
        for index, identifier in enumerate(identifiers))
    (folder / "index.html").write_text(PAGE.replace("BOXES", boxes))


MEASURE = """
return Array.from(document.querySelectorAll('.box'), (node) => {
  const s = getComputedStyle(node);
  return {
    identifier: node.dataset.livery,
    backgroundColor: s.backgroundColor, color: s.color, radius: s.borderTopLeftRadius,
    borderColor: s.borderTopColor, borderWidth: s.borderTopWidth, opacity: s.opacity, display: s.display,
    padding: [s.paddingTop, s.paddingLeft, s.paddingBottom, s.paddingRight], boxShadow: s.boxShadow,
    fontFamily: s.fontFamily, fontSize: s.fontSize, fontWeight: s.fontWeight,
    constant: s.getPropertyValue('--constant'), retries: s.getPropertyValue('--retries'),
    timeout: s.getPropertyValue('--timeout'), label: s.getPropertyValue('--label'),
  };
});
"""


def measure(driver):
    """What the browser computes for each box, by identifier."""
    return {box["identifier"]: box for box in driver.execute_script(MEASURE)}


def rgba(text):
    """`rgb(1, 2, 3)` / `rgba(1, 2, 3, 0.5)` as [r, g, b, a] with a in 0…255."""
    match = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", text.strip())
    assert match, f"not a computed colour: {text!r}"
    r, g, b, a = match.groups()
    return [float(r), float(g), float(b), 255 * float(a) if a is not None else 255.0]


def close_colour(computed, expected, what):
    channels = rgba(computed)
    assert all(abs(c - e) <= 1 for c, e in zip(channels, expected)), f"{what}: {computed} is not {expected}"


def pixels(text):
    assert text.endswith("px"), text
    return float(text[:-2])


def css_value(text):
    """A custom property's computed value read by a real CSS parser: the number or string it holds."""
    tokens = [t for t in tinycss2.parse_component_value_list(text) if t.type != "whitespace"]
    assert len(tokens) == 1, f"{text!r} is not one value"
    return tokens[0].value


def family(text):
    """The first family of a computed font-family, unquoted."""
    tokens = [t for t in tinycss2.parse_component_value_list(text) if t.type != "whitespace"]
    if tokens[0].type == "string":
        return tokens[0].value
    names = []
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            break
        names.append(token.value)
    return " ".join(names)


def compare(computed, box, identifier):
    """Asserts that a browser's computed style equals a StyledBox's state."""
    where = f"{identifier}"
    close_colour(computed["backgroundColor"], box["backgroundColor"], f"{where} background-color")
    close_colour(computed["color"], box["textColor"], f"{where} color")
    assert abs(pixels(computed["radius"]) - box["cornerRadius"]) < 0.01, (where, computed["radius"])
    close_colour(computed["borderColor"], box["borderColor"], f"{where} border-color")
    assert abs(pixels(computed["borderWidth"]) - box["borderWidth"]) < 0.01, (where, computed["borderWidth"])
    assert abs(float(computed["opacity"]) - box["opacity"]) < 0.002, (where, computed["opacity"])
    assert (computed["display"] == "none") == box["isHidden"], (where, computed["display"])
    assert [pixels(p) for p in computed["padding"]] == box["padding"], (where, computed["padding"])
    shadow_alpha = box["shadowColor"][3] * box["shadowOpacity"]
    if round(shadow_alpha) == 0:
        assert computed["boxShadow"] == "none" or rgba(computed["boxShadow"].split(")")[0] + ")")[3] == 0, \
            (where, computed["boxShadow"])
    else:
        colour, _, rest = computed["boxShadow"].partition(") ")
        expected = box["shadowColor"][:3] + [shadow_alpha]
        close_colour(colour + ")", expected, f"{where} box-shadow colour")
        x, y, blur, spread = (pixels(part) for part in rest.split())
        assert [x, y, blur, spread] == box["shadowOffset"] + [box["shadowRadius"], 0], (where, computed["boxShadow"])
    expected_family = "system-ui" if box["fontName"] == "System" else box["fontName"]
    assert family(computed["fontFamily"]) == expected_family, (where, computed["fontFamily"])
    assert pixels(computed["fontSize"]) == box["fontSize"], (where, computed["fontSize"])
    assert int(computed["fontWeight"]) == box["fontWeight"], (where, computed["fontWeight"])
    assert css_value(computed["constant"]) == box["constant"], (where, computed["constant"])
    assert css_value(computed["retries"]) == box["retries"], (where, computed["retries"])
    assert css_value(computed["timeout"]) == box["timeout"], (where, computed["timeout"])
    assert css_value(computed["label"]) == box["label"], (where, computed["label"])


def fresh_folder(source=WEB_SPECS):
    root = pathlib.Path(tempfile.mkdtemp(prefix="livery-web-"))
    shutil.copytree(source, root / "Specs")
    (root / "site").mkdir()
    return root


class LinkProxy:
    """A TCP proxy on its own port in front of the daemon: the network between a page and it.
    It keeps the request heads that went through and the bytes that came back, per
    connection, and can break every connection (`cut`, as a dropped link or a restarting
    balancer does) or close each request for a stylesheet before the daemon sees it
    (`failing_css`, as a flaky link does)."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.connections = []  # [{"heads": [(text, offset in answers)], "answers": bytearray, "sockets": [...]}]
        self.failing_css = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            connection = {"heads": [], "answers": bytearray(), "sockets": [client, upstream]}
            with self.lock:
                self.connections.append(connection)
            threading.Thread(target=self._requests, args=(connection,), daemon=True).start()
            threading.Thread(target=self._answers, args=(connection,), daemon=True).start()

    def _requests(self, connection):
        client, upstream = connection["sockets"]
        pending = b""
        try:
            while chunk := client.recv(65536):
                pending += chunk
                while b"\r\n\r\n" in pending:  # the page's requests have no body
                    head, _, pending = pending.partition(b"\r\n\r\n")
                    with self.lock:  # with where its answer starts: browsers do not pipeline
                        connection["heads"].append((head.decode("latin-1"), len(connection["answers"])))
                    if self.failing_css and head.split(b" ")[1].startswith(b"/v1/css/"):
                        raise OSError("a stylesheet request, closed on purpose")
                    upstream.sendall(head + b"\r\n\r\n")
        except OSError:
            pass
        self._close(connection)

    def _answers(self, connection):
        client, upstream = connection["sockets"]
        try:
            while chunk := upstream.recv(65536):
                with self.lock:
                    connection["answers"] += chunk
                client.sendall(chunk)
        except OSError:
            pass
        self._close(connection)

    @staticmethod
    def _close(connection):
        for end in connection["sockets"]:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def streams(self):
        """The event-stream connections so far, oldest first: (request head, bytes answered)."""
        with self.lock:
            return [(head, bytes(c["answers"][start:])) for c in self.connections for head, start in c["heads"]
                    if head.startswith("GET /v1/events ")]

    def cut(self):
        """Breaks every connection through the proxy."""
        with self.lock:
            connections = list(self.connections)
        for connection in connections:
            self._close(connection)

    def stop(self):
        self.listener.close()
        self.cut()
