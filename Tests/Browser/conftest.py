"""Fixtures for the Livery Studio browser tests: a real `livery serve` on a fresh copy of the
example specs (port 0, loopback) or on a real etcd member (Debian's /usr/bin/etcd, loopback ports,
a temporary data folder), a real headless Chromium driven by Selenium, and the StudioFollower
program (a real TraitsProvider following the daemon)."""

import json
import os
import pathlib
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("LIVERY_BUILD_DIR", ROOT / ".build" / "debug"))
ARTIFACTS = pathlib.Path(__file__).resolve().parent / "artifacts"
TOKEN = "studio-browser-test-token-0123456789"


class Lines:
    """The lines a child process prints, read on a thread so a test can wait for one."""

    def __init__(self, process):
        self.queue = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            self.queue.put(line.rstrip("\n"))

    def wait_for(self, pattern, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            match = re.search(pattern, line)
            if match:
                return match
        raise AssertionError(f"no line matching {pattern!r} within {timeout} s; saw {self.seen}")


class Daemon:
    """`livery serve` on a temporary folder (or, with `etcd`, on that etcd member; with
    `environments`, each subfolder of `folder` an environment), with helpers to read and write
    its files. The token file is written beside `folder`."""

    def __init__(self, folder, extra_arguments=(), etcd=None, environments=False):
        self.folder = folder
        token_file = folder.parent / "token"
        token_file.write_text(TOKEN)
        token_file.chmod(0o600)
        # A folder's history goes to a state folder beside it, not the user's.
        store = ["--etcd", etcd.url] if etcd else [str(folder), "--state-dir", str(folder.parent / "state")]
        if environments:
            store = ["--environments", *store]
        self.process = subprocess.Popen(
            [str(BUILD / "livery"), "serve", *store, "--port", "0", "--token-file", str(token_file),
             "--log-level", "warning", *extra_arguments],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = Lines(self.process)
        port = self.lines.wait_for(r"serving .* on http://127\.0\.0\.1:(\d+)").group(1)
        self.base = f"http://127.0.0.1:{port}"

    def path(self, name):
        return self.folder / name

    def request(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def publish(self, files, message):
        """`POST /v1/specs`: one atomic publish of `files` (path → text), with the token."""
        body = json.dumps({"files": files, "message": message}).encode()
        reply = self.request("POST", "/v1/specs", body,
                             {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        assert reply[0] == 200, reply
        return json.loads(reply[2])

    def file(self, name):
        """The text of one spec file as the daemon serves it."""
        status, _, body = self.request("GET", f"/v1/specs/{name}")
        assert status == 200, (name, status, body)
        return body.decode()

    def etag(self):
        return self.request("GET", "/v1/spec")[1]["ETag"]

    def wait_for_new_bundle(self, old_etag, timeout=5):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.etag() != old_etag:
                return
            time.sleep(0.02)
        raise AssertionError("the daemon did not publish a new bundle")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def pytest_configure(config):
    config.addinivalue_line("markers", "page_query(text): added to the query of the web page test's page")


def free_port():
    """A loopback port nothing listens on now, for a server (etcd) that cannot take port 0."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Etcd:
    """One etcd member on loopback ports with its data in `folder`."""

    def __init__(self, folder):
        client, peer = f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"
        self.url = client
        self.log = open(folder / "etcd.log", "w")
        self.process = subprocess.Popen(
            [shutil.which("etcd") or "/usr/bin/etcd", "--name", "m0", "--data-dir", str(folder / "etcd"),
             "--listen-client-urls", client, "--advertise-client-urls", client,
             "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", f"m0={peer}",
             "--heartbeat-interval", "50", "--election-timeout", "500", "--log-level", "error"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(client + "/health", timeout=1) as response:
                    if b'"health":"true"' in response.read():
                        return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"etcd did not become healthy within 10 s; see {folder / 'etcd.log'}")

    def _post(self, path, body):
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def compact(self):
        """Compacts the store at its current revision: every older revision is gone."""
        revision = self._post("/v3/kv/range", {"key": "AA=="})["header"]["revision"]
        self._post("/v3/kv/compaction", {"revision": revision, "physical": True})

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


def has_dry_run(daemon):
    """Whether the daemon honours `PUT …?dryRun=true` (validates, writes nothing): tried once with
    a new file in the test's own throwaway folder. The editing flows need it: without it each
    check while typing would be a real write."""
    status, _, _ = daemon.request(
        "PUT", "/v1/specs/dry-run-probe.yaml?dryRun=true", b"specs: {}\n",
        {"Authorization": f"Bearer {TOKEN}"})
    probe = daemon.path("dry-run-probe.yaml")
    if probe.exists():
        probe.unlink()
        return False
    return status < 300


@pytest.fixture
def specs():
    """A fresh copy of the repository's example specs."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="livery-studio-"))
    folder = root / "Specs"
    shutil.copytree(ROOT / "Specs", folder)
    yield folder
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def daemon(specs):
    running = Daemon(specs)
    yield running
    running.stop()


@pytest.fixture
def etcd(specs):
    member = Etcd(specs.parent)
    yield member
    member.stop()


@pytest.fixture
def etcd_daemon(specs, etcd):
    """`livery serve --etcd` with the example specs published once (message "the example specs")."""
    running = Daemon(specs, etcd=etcd)
    running.publish({path.name: path.read_text() for path in sorted(specs.iterdir())}, "the example specs")
    yield running
    running.stop()


@pytest.fixture
def needs_dry_run(daemon):
    if not has_dry_run(daemon):
        pytest.skip("this daemon has no PUT ?dryRun=true yet: validation while typing would write")


@pytest.fixture(scope="session")
def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1480,1500", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def signing_off(message):
    """Whether a console message is Chromium logging the 404 of a daemon without --signing, which
    the signing panel asks for and shows as "signed delivery is off"."""
    return bool(re.search(r"/tuf/status - .* 404 ", message))


def expected_refusal(message):
    """Whether a console message is Chromium logging an HTTP refusal the page asked for and
    shows: a refused write or restore, or signing off (signing_off)."""
    return bool(re.search(r" (401|410|412|422) ", message)) or signing_off(message)


def open_studio(browser, daemon, request):
    """The studio of `daemon`, open in the browser; afterwards a screenshot, and a check that
    the page broke no Content-Security-Policy rule and logged no error."""
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(daemon.base + "/studio/")
    yield browser
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"{request.node.name}.png"))
    problems = [entry["message"] for entry in browser.get_log("browser")
                if entry["level"] == "SEVERE" or "Content Security Policy" in entry["message"]]
    problems = [message for message in problems if not expected_refusal(message)]
    assert problems == []


@pytest.fixture
def page(browser, daemon, request):
    yield from open_studio(browser, daemon, request)


@pytest.fixture
def etcd_page(browser, etcd_daemon, request):
    yield from open_studio(browser, etcd_daemon, request)


class Follower:
    """StudioFollower following a daemon with a box registered as `card.button`; `lines` are
    what it prints."""

    def __init__(self, daemon):
        self.process = subprocess.Popen([str(BUILD / "StudioFollower"), daemon.base, "card.button"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = Lines(self.process)

    def wait_for(self, pattern, timeout=10):
        return self.lines.wait_for(pattern, timeout)

    def stop(self):
        self.process.terminate()
        # A follower a test paused (SIGSTOP) must run again to act on the SIGTERM.
        self.process.send_signal(signal.SIGCONT)
        self.process.wait(timeout=10)


@pytest.fixture
def follower(daemon):
    running = Follower(daemon)
    yield running
    running.stop()


@pytest.fixture
def etcd_follower(etcd_daemon):
    running = Follower(etcd_daemon)
    yield running
    running.stop()


@pytest.fixture
def tuf_repository():
    """A TUF repository python-tuf writes in a fresh site folder (tuf_repository.py)."""
    from tuf_repository import TUFRepository
    site = pathlib.Path(tempfile.mkdtemp(prefix="livery-tuf-")) / "site"
    site.mkdir()
    yield TUFRepository(site)
    shutil.rmtree(site.parent, ignore_errors=True)


@pytest.fixture
def hostile_front(tuf_repository):
    """The hostile front (hostile_front.py) before a static server of the repository's site."""
    from hostile_front import HostileFront
    from web_page import StaticServer
    server = StaticServer(tuf_repository.site)
    front = HostileFront(server.origin)
    yield front
    front.stop()
    server.stop()


def json_body(reply):
    return json.loads(reply[2])
