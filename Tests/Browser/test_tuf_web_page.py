"""The browser client's verification (`follow(base, {root})`, livery-tuf.js) in headless
Chromium, against a TUF repository python-tuf wrote (tuf_repository.py), served statically
with the version signal's file, through the hostile front (hostile_front.py): the page applies
two versions, refuses each attack on the third with the check that failed, keeps the second
stylesheet, reports the refusal in Livery-Client, and applies the third once the front is
honest again. The same cases as ngclient's (test_tuf_ngclient.py)."""

import datetime
import shutil
import time

import pytest
from securesystemslib.formats import encode_canonical

from conftest import ROOT

RESOURCES = ROOT / "Sources" / "LiveryServer" / "Resources"

# The check the page names for each attack on the second version.
REFUSALS = {
    "flip": "target hash",
    "older-target": "target hash",
    "older-timestamp": "timestamp rollback",
    "older-snapshot": "snapshot version",
    "older-targets": "targets version",
    "freeze-timestamp": "timestamp expired",
    "forge-timestamp": "timestamp signature",
}

# The page: the client follows its own origin (the front) with the trusted root's URL, in the
# environment the query names (the default one without), on a clock the test can move on
# (window.ahead, in ms).
PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Livery TUF test</title>
<script type="module">
  import { follow } from "./livery.js";
  window.ahead = 0;
  window.updates = [];
  window.refusals = [];
  window.livery = follow(location.origin, {
    name: "tuf-web-test", wait: 1, root: "./trusted-root.json", now: () => Date.now() + window.ahead,
    environment: new URLSearchParams(location.search).get("environment") ?? undefined,
    onUpdate: ({ version }) => window.updates.push(version),
    onError: (error) => window.refusals.push(error.check ?? `not a refusal: ${error.message}`),
  });
</script>
</head>
<body><p id="box">box</p></body>
</html>
"""

DAY_MS = 86_400_000


def serve_page(repository):
    """The page, the browser client's two modules and the trusted root beside the repository."""
    for name in ("livery.js", "livery-tuf.js"):
        shutil.copy(RESOURCES / name, repository.site / name)
    (repository.site / "index.html").write_text(PAGE)
    (repository.site / "trusted-root.json").write_bytes(repository.trusted_root)


def wait_until(browser, script, what, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = browser.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} within {timeout} s; refusals: {browser.execute_script('return window.refusals')}")


def wait_for_report(front, text, timeout=10):
    """Waits for a Livery-Client header containing `text` to pass the front: the page reports a
    refusal at once (POST /v1/reports), beside the failed round, so it arrives a moment later."""
    deadline = time.monotonic() + timeout
    while not front.reported(text):
        assert time.monotonic() < deadline, f"no report {text!r}: {front.reports[-3:]}"
        time.sleep(0.05)


def applied(browser):
    """The version applied and the stylesheet's number on the box."""
    return browser.execute_script(
        "return [window.livery.version, getComputedStyle(document.getElementById('box'))"
        ".getPropertyValue('--livery-n').trim()]")


def open_page(browser, repository, front):
    serve_page(repository)
    repository.publish_number(1)
    browser.get(front.base + "/index.html")
    wait_until(browser, "return window.livery && window.livery.version !== null", "the first version applied")
    assert applied(browser) == ['"v1"', "1"]


@pytest.mark.parametrize("attack", list(REFUSALS))
def test_the_page_refuses_each_attack_of_the_hostile_front(browser, tuf_repository, hostile_front, attack):
    repository, front = tuf_repository, hostile_front
    open_page(browser, repository, front)
    repository.publish_number(2)
    wait_until(browser, "return window.livery.version === '\"v2\"'", "the second version")
    front.start(attack)
    ahead = datetime.timedelta(days=2) if attack == "freeze-timestamp" else datetime.timedelta(0)
    browser.execute_script(f"window.ahead = {ahead.days * DAY_MS}")
    repository.publish_number(3, ahead)
    check = REFUSALS[attack]
    wait_until(browser, f"return window.refusals.includes({check!r})", f"the page refusing with {check!r}")
    assert applied(browser) == ['"v2"', "2"], "a refused version replaced the last good stylesheet"
    wait_for_report(front, f'refused="\\"v3\\"", note="tuf: {check}:')
    front.start(None)
    wait_until(browser, "return window.livery.version === '\"v3\"'", "the third version once the front is honest")
    assert applied(browser) == ['"v3"', "3"]
    refusals = browser.execute_script("return window.refusals")
    assert set(refusals) == {check}, refusals


def test_the_page_follows_a_root_rotation(browser, tuf_repository, hostile_front):
    repository, front = tuf_repository, hostile_front
    open_page(browser, repository, front)
    repository.rotate_root()
    repository.publish_number(2)
    wait_until(browser, "return window.livery.version === '\"v2\"'", "the second version, signed after the rotation")
    assert applied(browser) == ['"v2"', "2"]
    assert browser.execute_script("return window.refusals") == []


def test_the_page_follows_its_environments_repository(browser, tuf_repository, hostile_front):
    """With `{environment, root}` the page verifies with the environment's repository
    (`/v1/environments/staging/tuf/`), not the default one's, whose keys differ."""
    from tuf_repository import TUFRepository
    staging = TUFRepository(tuf_repository.site, routes="v1/environments/staging")
    serve_page(staging)
    tuf_repository.publish_number(1)
    staging.publish_number(5)
    browser.get(hostile_front.base + "/index.html?environment=staging")
    wait_until(browser, "return window.livery && window.livery.version === '\"v5\"'", "staging's first version")
    assert applied(browser) == ['"v5"', "5"]
    tuf_repository.publish_number(2)
    staging.publish_number(6)
    wait_until(browser, "return window.livery.version === '\"v6\"'", "staging's second version")
    assert applied(browser) == ['"v6"', "6"]
    assert browser.execute_script("return window.refusals") == []


def test_canonical_json_is_the_one_tuf_signs(browser, tuf_repository, hostile_front):
    """livery-tuf.js's canonical JSON against securesystemslib's, which python-tuf signs: keys
    in code point order (an astral character's key after U+FFFF, where UTF-16 order puts it
    before), only `"` and `\\` escaped, no whitespace."""
    value = {"b": [True, False, None, -3, 0, {}], "\U0001F600": 1, "\uffff": 2, "a": 'q"b\\s\n\u00e9\u0001', "": "x"}
    serve_page(tuf_repository)
    browser.get(hostile_front.base + "/trusted-root.json")
    written = browser.execute_async_script(
        "const [value, done] = arguments;"
        "import('/livery-tuf.js').then((module) => done(module.canonical(value)), (error) => done(String(error)));",
        value)
    assert written == encode_canonical(value)


def test_a_frozen_front_cannot_hide_an_expired_timestamp(browser, tuf_repository, hostile_front):
    """No new version, so the version signal names the one applied: the page still refreshes
    the signed metadata, and two days on the frozen timestamp has expired."""
    open_page(browser, tuf_repository, hostile_front)
    hostile_front.start("freeze-timestamp")
    browser.execute_script(f"window.ahead = {2 * DAY_MS}")
    wait_until(browser, "return window.refusals.includes('timestamp expired')", "the page refusing the stale timestamp")
    assert applied(browser) == ['"v1"', "1"]
    # Reported with no version refused: the front named none.
    wait_for_report(hostile_front, 'applied="\\"v1\\"", note="tuf: timestamp expired:')
