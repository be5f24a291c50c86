#!/usr/bin/env python3
"""Figure 10's browser row: push → computed style changed in a real headless Chromium.

Starts `livery serve` (the executable given) on a copy of Specs/ allowing the page's origin, a
static server for the page on another port, and Chromium through Selenium; the page follows the
daemon with /v1/livery.js. Each push (`POST /v1/specs`, alternating the accent colour) is
timed from just before the request to the moment the page's onUpdate has replaced the
stylesheet and read the card button's computed background colour, which forces the style
recalculation. Both instants are read from the same wall clock (the page's
performance.timeOrigin + performance.now()). Prints JSON: {"milliseconds": [...], "push": [...]},
the second the pushes' own round trips (request → 2xx), the baseline.
"""
import argparse
import json
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = """<!doctype html><html><head><meta charset="utf-8"><script type="module">
const daemon = new URLSearchParams(location.search).get("daemon");
const { follow } = await import(`${daemon}/v1/livery.js`);
window.applied = [];
const button = document.querySelector('[data-livery="card.button"]');
window.livery = follow(daemon, { name: "bench", onUpdate: ({ version }) => {
  const colour = getComputedStyle(button).backgroundColor;
  window.applied.push({ version, colour, at: performance.timeOrigin + performance.now() });
} });
</script></head><body><div data-livery="card"><button data-livery="card.button">Try it</button></div></body></html>
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_url(url, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{url} did not answer")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--livery", required=True)
    parser.add_argument("--pushes", type=int, default=21)
    arguments = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="livery-web-bench-"))
    processes = []
    driver = None
    try:
        shutil.copytree(ROOT / "Specs", work / "Specs")
        (work / "site").mkdir()
        (work / "site" / "index.html").write_text(PAGE)
        token = "bench-token-0123456789abcdef"
        (work / "token").write_text(token)
        (work / "token").chmod(0o600)
        site_port, daemon_port = free_port(), free_port()
        origin = f"http://127.0.0.1:{site_port}"
        daemon = f"http://127.0.0.1:{daemon_port}"
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "http.server", str(site_port), "--bind", "127.0.0.1", "--directory",
             str(work / "site")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        processes.append(subprocess.Popen(
            [arguments.livery, "serve", str(work / "Specs"), "--port", str(daemon_port), "--token-file",
             str(work / "token"), "--allow-origin", origin, "--log-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for_url(origin + "/index.html")
        wait_for_url(daemon + "/v1/css")
        options = Options()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                                  options=options)
        driver.get(f"{origin}/index.html?daemon={daemon}")
        deadline = time.monotonic() + 20
        while not driver.execute_script("return window.applied?.length ?? 0"):
            if time.monotonic() > deadline:
                raise SystemExit("the page never applied a stylesheet")
            time.sleep(0.02)
        card = (work / "Specs" / "card.yaml").read_text()
        latencies, pushes = [], []
        for index in range(arguments.pushes):
            colour = f"#{(index * 37) % 256:02X}{(index * 91) % 256:02X}{(index * 53 + 1) % 256:02X}"
            text = card.replace('color: "@colors.accent" }', f'color: "{colour}" }}', 1)
            body = json.dumps({"files": {"card.yaml": text}, "message": f"push {index}"}).encode()
            count = driver.execute_script("return window.applied.length")
            request = urllib.request.Request(daemon + "/v1/specs", data=body, method="POST", headers={
                "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            start = time.time() * 1000
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
            pushes.append(time.time() * 1000 - start)
            deadline = time.monotonic() + 10
            while driver.execute_script("return window.applied.length") == count:
                if time.monotonic() > deadline:
                    raise SystemExit(f"push {index} was not applied")
                time.sleep(0.002)
            applied = driver.execute_script("return window.applied.at(-1)")
            expected = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
            if applied["colour"] != "rgb(%d, %d, %d)" % expected:
                raise SystemExit(f"push {index}: the page computed {applied['colour']}, not {colour}")
            latencies.append(applied["at"] - start)
            time.sleep(0.05)
        print(json.dumps({"milliseconds": latencies, "push": pushes}))
    finally:
        if driver:
            driver.quit()
        for process in processes:
            process.terminate()
            process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
