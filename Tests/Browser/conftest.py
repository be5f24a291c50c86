"""Fixtures for the Livery Studio browser tests: a real `livery serve` on a fresh copy of the
example specs (port 0, loopback), a real headless Chromium driven by Selenium, and the
StudioFollower program (a real TraitsProvider following the daemon)."""

import json
import os
import pathlib
import queue
import re
import shutil
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
    """`livery serve` on a temporary folder, with helpers to read and write its files."""

    def __init__(self, folder, extra_arguments=()):
        self.folder = folder
        token_file = folder.parent / "token"
        token_file.write_text(TOKEN)
        token_file.chmod(0o600)
        self.process = subprocess.Popen(
            [str(BUILD / "livery"), "serve", str(folder), "--port", "0", "--token-file", str(token_file),
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


@pytest.fixture
def page(browser, daemon, request):
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
    # A refused write is logged by Chromium as a failed fetch; those are expected answers.
    problems = [message for message in problems if not re.search(r" (401|412|422) ", message)]
    assert problems == []


@pytest.fixture
def follower(daemon):
    """StudioFollower following `daemon` with a box registered as `card.button`."""
    process = subprocess.Popen([str(BUILD / "StudioFollower"), daemon.base, "card.button"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = Lines(process)
    yield lines
    process.terminate()
    process.wait(timeout=10)


def json_body(reply):
    return json.loads(reply[2])
