"""A page on the event stream (`follow(…, { mode: "events" })`) resumes from the version it
applied: each new connection names it in `Last-Event-ID`, so a stream that broke while a version
was published, or a version seen whose stylesheet never arrived, is not lost; and a reconnection
with nothing new costs no bundle. Through LinkProxy, a real TCP proxy between page and daemon."""

import re
import shutil
import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import free_port
from web_page import LinkProxy, StaticServer, WebDaemon, fresh_folder, measure, oracle, write_page


def wait(driver, condition, timeout=15, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


@pytest.fixture
def linked(browser):
    """A daemon, a proxy in front of it, and the test page on another origin following the
    proxy in events mode."""
    root = fresh_folder()
    server = StaticServer(root / "site")
    daemon = WebDaemon(root / "Specs", free_port(), server.origin)
    proxy = LinkProxy(int(daemon.base.rsplit(":", 1)[1]))
    try:
        write_page(root / "site", oracle(root / "Specs")["looks"][""].keys())
        browser.get(f"{server.origin}/index.html?daemon={proxy.base}&mode=events")
        wait(browser, lambda d: d.execute_script("return window.livery?.version ?? null"), message="no stylesheet")
        yield browser, daemon, proxy, root
    finally:
        proxy.stop()
        daemon.stop()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


def version(driver):
    return driver.execute_script("return window.livery.version")


def header(head, name):
    """A header's value in a request head, nil without it."""
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


def radius(root, value):
    """The files of a publish setting the variable box.radius reads (metrics.radius) to `value`."""
    text = (root / "Specs" / "look.yaml").read_text()
    changed = re.sub(r"(?m)^    radius: [\d.]+$", f"    radius: {value}", text, count=1)
    assert changed != text
    return {"look.yaml": changed}


def test_a_broken_stream_resumes_from_the_version_applied_and_loses_none(linked):
    driver, daemon, proxy, root = linked
    first = version(driver)
    [(head, _)] = proxy.streams()
    assert header(head, "Last-Event-ID") is None  # the first connection has applied nothing

    # Nothing new while the stream is down: the daemon sends no bundle on the new connection.
    proxy.cut()
    wait(driver, lambda _: len(proxy.streams()) == 2, message="the page did not reconnect")
    head, _ = proxy.streams()[1]
    assert header(head, "Last-Event-ID") == first
    wait(driver, lambda _: b"retry:" in proxy.streams()[1][1], message="the new stream did not open")
    time.sleep(0.5)  # the daemon writes the current version, if at all, right after the hint
    assert b"event: spec" not in proxy.streams()[1][1]
    assert version(driver) == first

    # A version seen whose stylesheet never arrives (every /v1/css/… request is cut): the page
    # keeps its look, and its next connection still names the version it applied, so the daemon
    # sends the new version again until its stylesheet arrives.
    looks = measure(driver)
    proxy.failing_css = True
    daemon.publish(radius(root, 11), "radius 11")
    wait(driver, lambda _: len(proxy.streams()) >= 4, message="the page did not reconnect after failing to apply")
    assert all(header(head, "Last-Event-ID") == first for head, _ in proxy.streams()[2:])
    assert version(driver) == first and measure(driver) == looks
    proxy.failing_css = False
    wait(driver, lambda d: version(d) != first, timeout=40, message="the page lost the version it saw")
    assert measure(driver)["box.radius"]["radius"] == "11px"
    second = version(driver)

    # A version published while the link is down arrives with the next connection.
    proxy.cut()
    daemon.publish(radius(root, 13), "radius 13")
    wait(driver, lambda d: version(d) not in (first, second), timeout=40, message="the page lost a version")
    assert measure(driver)["box.radius"]["radius"] == "13px"
