"""Livery Studio's signing panel in a real browser (headless Chromium) against a real `livery serve
--signing DIR` (the folder made by `livery signing init`): the panel shows each role's key ids as
root.json has them and the versions and expiries of the metadata the daemon serves (read here over
HTTP as a TUF client walks it), which go up after a push; an expired timestamp is marked, and a role
near its expiry is marked "expires soon" (on a clock the test hands the page); with
`--offline-targets` it says the targets key is offline; without `--signing` it says signing is off;
with environments it shows the page's environment's repository."""

import datetime
import json
import shutil
import subprocess

import pytest

from conftest import BUILD, TOKEN, Daemon, open_studio
from test_studio import text_of, wait

ROLES = ["root", "targets", "snapshot", "timestamp"]
BLUE = '"#0A84FF"'
REFRESH = 15  # the panel asks every 5 s and when the version changes; signing follows the publish


def signing_init(parent):
    folder = parent / "signing"
    subprocess.run([str(BUILD / "livery"), "signing", "init", str(folder)], check=True, capture_output=True)
    return folder


@pytest.fixture
def signing_daemon(specs):
    running = Daemon(specs, ["--signing", str(signing_init(specs.parent))])
    yield running
    running.stop()


@pytest.fixture
def signing_page(browser, signing_daemon, request):
    yield from open_studio(browser, signing_daemon, request)


def served(daemon, base="/v1"):
    """The signed part of each role's metadata the daemon serves at `base`, walked as a TUF client
    does (timestamp, the snapshot it names, the targets that names); None before the first."""
    def get(name):
        status, _, body = daemon.request("GET", f"{base}/tuf/metadata/{name}")
        return json.loads(body)["signed"] if status == 200 else None
    timestamp = get("timestamp.json")
    if timestamp is None:
        return None
    snapshot = get(f"{timestamp['meta']['snapshot.json']['version']}.snapshot.json")
    targets = get(f"{snapshot['meta']['targets.json']['version']}.targets.json")
    return {"root": get("root.json"), "targets": targets, "snapshot": snapshot, "timestamp": timestamp}


def shown(driver):
    """The panel's rows by role: version, expiry, key ids (full, from the titles) and their labels."""
    return driver.execute_script("""
        return Object.fromEntries([...document.querySelectorAll('#signing-rows tr')].map((row) => [row.dataset.role, {
          version: row.dataset.version, expires: row.dataset.expires, expiry: row.dataset.expiry,
          online: row.dataset.online, text: row.textContent,
          keyids: [...row.querySelectorAll('.keyid')].map((code) => code.title),
          labels: [...row.querySelectorAll('.keyid')].map((code) => code.textContent),
        }]));""")


def panel_state(driver):
    return driver.execute_script("return document.getElementById('signing').dataset.state")


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def shows_versions_of(driver, metadata):
    """Whether the panel shows each role at the version and expiry of `metadata`."""
    rows = shown(driver)
    return metadata is not None and all(
        role in rows and rows[role]["version"] == str(metadata[role]["version"])
        and rows[role]["expires"] and instant(rows[role]["expires"]) == instant(metadata[role]["expires"])
        for role in ROLES)


def test_the_panel_shows_each_roles_keys_and_the_versions_served_which_go_up_after_a_push(
        signing_page, signing_daemon):
    page, daemon = signing_page, signing_daemon
    wait(page, lambda d: served(daemon) is not None, timeout=REFRESH)
    before = served(daemon)
    wait(page, lambda d: shows_versions_of(d, before), timeout=REFRESH)
    rows = shown(page)
    order = page.execute_script("return [...document.querySelectorAll('#signing-rows tr')].map((r) => r.dataset.role)")
    assert order == ROLES
    for role in ROLES:
        keyids = before["root"]["roles"][role]["keyids"]
        assert rows[role]["keyids"] == keyids, role
        assert rows[role]["labels"] == [f"{keyid[:8]}…" for keyid in keyids], "shortened for display"
        assert f"{before['root']['roles'][role]['threshold']} of {len(keyids)}" in rows[role]["text"]
        assert rows[role]["expiry"] == "ok", (role, rows[role])
    assert rows["root"]["online"] == "false" and rows["targets"]["online"] == "true"
    assert "Signed delivery is on" in text_of(page, "#signing-summary")
    assert "holds the targets, snapshot and timestamp keys" in text_of(page, "#signing-targets")

    text = daemon.path("palette.yaml").read_text().replace(BLUE, '"#FF375F"')
    daemon.publish({"palette.yaml": text}, "a new accent, signed")
    wait(page, lambda d: (served(daemon) or before)["targets"]["version"] > before["targets"]["version"],
         timeout=REFRESH)
    after = served(daemon)
    wait(page, lambda d: shows_versions_of(d, after), timeout=REFRESH)
    rows = shown(page)
    for role in ["targets", "snapshot", "timestamp"]:
        assert int(rows[role]["version"]) > before[role]["version"], role
    assert rows["root"]["version"] == str(before["root"]["version"]), "a push signs no new root"


def test_an_expired_timestamp_is_marked(browser, specs, request):
    # Re-signed at half of 2 s, but the daemon looks only every minute: expired in between.
    daemon = Daemon(specs, ["--signing", str(signing_init(specs.parent)), "--timestamp-expiry", "2"])
    try:
        for page in open_studio(browser, daemon, request):
            wait(page, lambda d: shown(d).get("timestamp", {}).get("expiry") == "expired", timeout=REFRESH)
            row = shown(page)["timestamp"]
            assert "expired" in row["text"] and "ago" in row["text"], row
            assert shown(page)["root"]["expiry"] == "ok"
    finally:
        daemon.stop()


def moment(text):
    """An instant of the status answer in ms since the epoch, as the page's clock counts."""
    return instant(text).timestamp() * 1000


def hand_clock(driver, at):
    """Stops the panel's clock at `at` (ms since the epoch) and has it ask and draw again: the
    refresh it waits for draws with that clock, whether it asks anew or joins a request under way."""
    failed = driver.execute_async_script("""
        const [at, done] = arguments;
        import('/studio/js/signing.js')
          .then((signing) => { signing.clock.now = () => at; return signing.refresh(); })
          .then(() => done(null), (error) => done(String(error)));""", at)
    assert failed is None, failed


def expiry_at(driver, at, role):
    """The panel's mark of `role` (its row's data-expiry) and the row's text with its clock at `at`."""
    hand_clock(driver, at)
    row = shown(driver)[role]
    return row["expiry"], row["text"]


def test_a_role_near_its_expiry_is_marked_expires_soon_on_the_clock_the_page_is_handed(
        signing_page, signing_daemon):
    page, daemon = signing_page, signing_daemon
    wait(page, lambda d: shows_versions_of(d, served(daemon)), timeout=REFRESH)
    status, _, body = daemon.request("GET", "/v1/tuf/status")
    assert status == 200, body
    roles = json.loads(body)["roles"]
    minute, day = 60_000, 86_400_000

    # The daemon signs the timestamp anew at `renews`, half its life: a quarter of its life
    # left means it missed that, and the mark shows from then until it expires.
    timestamp = roles["timestamp"]
    expires = moment(timestamp["expires"])
    soon_from = expires - (expires - moment(timestamp["renews"])) / 2
    assert expiry_at(page, soon_from - minute, "timestamp")[0] == "ok"
    state, text = expiry_at(page, soon_from + minute, "timestamp")
    assert state == "soon" and "expires soon" in text, text
    assert expiry_at(page, expires - minute, "timestamp")[0] == "soon"
    state, text = expiry_at(page, expires + minute, "timestamp")
    assert state == "expired" and "expires soon" not in text and "ago" in text, text

    # Root's key is offline, a person's to sign with again: marked a month before it expires.
    expires = moment(roles["root"]["expires"])
    assert expiry_at(page, expires - 30 * day - minute, "root")[0] == "ok"
    state, text = expiry_at(page, expires - 30 * day + minute, "root")
    assert state == "soon" and "expires soon" in text, text


def test_with_offline_targets_the_panel_says_the_targets_key_is_offline(browser, specs, request):
    signing = signing_init(specs.parent)
    key = specs.parent / "targets.key"
    shutil.move(signing / "targets.key", key)
    daemon = Daemon(specs, ["--signing", str(signing), "--offline-targets"])
    try:
        for page in open_studio(browser, daemon, request):
            wait(page, lambda d: panel_state(d) == "on" and "targets" in shown(d), timeout=REFRESH)
            assert page.execute_script("return document.getElementById('signing').dataset.offlineTargets") == "true"
            assert "The targets key is offline (--offline-targets)" in text_of(page, "#signing-targets")
            assert "Nothing is signed yet" in text_of(page, "#signing-targets")
            rows = shown(page)
            assert rows["targets"]["online"] == "false" and "offline (--offline-targets)" in rows["targets"]["text"]
            assert rows["targets"]["version"] == "" and "not signed yet" in rows["targets"]["text"]
            assert rows["snapshot"]["online"] == "true"

            changed = specs.parent / "palette.yaml"
            changed.write_text(daemon.path("palette.yaml").read_text().replace(BLUE, '"#FF375F"'))
            pushed = subprocess.run(
                [str(BUILD / "livery"), "push", "--server", daemon.base, "--token-file", str(specs.parent / "token"),
                 "--sign-with", str(key), "-m", "signed offline", str(changed)],
                capture_output=True, text=True, timeout=60)
            assert pushed.returncode == 0, pushed.stderr
            wait(page, lambda d: shows_versions_of(d, served(daemon)), timeout=REFRESH)
            assert shown(page)["targets"]["version"] == "1"
            assert "Nothing is signed yet" not in text_of(page, "#signing-targets")
            assert "The targets key is offline" in text_of(page, "#signing-targets")
    finally:
        daemon.stop()


def test_without_signing_the_panel_says_signing_is_off(page, daemon):
    wait(page, lambda d: panel_state(d) == "off", timeout=REFRESH)
    summary = text_of(page, "#signing-summary")
    assert "Signed delivery is off" in summary, summary
    assert "livery signing init DIR" in summary and "--signing DIR" in summary, summary
    assert shown(page) == {}
    assert not page.execute_script("return document.getElementById('signing-roles').checkVisibility()")


def test_the_panel_follows_the_environment_the_page_shows(browser, specs, request):
    root = specs.parent / "Environments"
    for name in ("production", "staging"):
        shutil.copytree(specs, root / name)
    daemon = Daemon(root, ["--signing", str(signing_init(specs.parent))], environments=True)
    try:
        staging = "/v1/environments/staging"
        wait(browser, lambda d: served(daemon, staging) is not None, timeout=REFRESH)
        before = served(daemon, staging)
        text = (root / "staging" / "palette.yaml").read_text().replace(BLUE, '"#FF9F0A"')
        body = json.dumps({"files": {"palette.yaml": text}, "message": "staging only"}).encode()
        reply = daemon.request("POST", f"{staging}/specs", body,
                               {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        assert reply[0] == 200, reply
        wait(browser, lambda d: (served(daemon, staging) or before)["targets"]["version"] > before["targets"]["version"],
             timeout=REFRESH)
        production = served(daemon, "/v1/environments/production")
        assert production["targets"]["version"] != served(daemon, staging)["targets"]["version"]
        for page in open_studio(browser, daemon, request):
            wait(page, lambda d: d.current_url.endswith("?environment=production"))
            wait(page, lambda d: shows_versions_of(d, production), timeout=REFRESH)
            page.get(daemon.base + "/studio/?environment=staging")
            wait(page, lambda d: shows_versions_of(d, served(daemon, staging)), timeout=REFRESH)
    finally:
        daemon.stop()
