"""Livery Studio's live fleet and its history with restore, in a real browser (headless
Chromium): real StudioFollower programs as the fleet, a real etcd member as the store."""

import json
import signal
import time

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, TOKEN, Follower, signing_off
from test_studio import background, find, text_of, unlock, wait

ACCENT = '"#0A84FF"'
PURPLE = '"#AF52DE"'


def fleet(driver):
    """(clients, converged, the live version the count is for), as the page shows them."""
    return driver.execute_script(
        "const f = document.getElementById('fleet').dataset;"
        "return [Number(f.clients), Number(f.converged), f.current ?? ''];")


def version_rows(driver):
    """The page's bar rows: [(etag, clients, is the live one)], most clients first."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.fleet-version')].map("
        "  (li) => [li.dataset.etag, Number(li.dataset.clients), li.classList.contains('current')]);")


def test_the_fleet_count_reaches_the_followers_as_they_apply_a_push(page, daemon):
    followers = [Follower(daemon) for _ in range(3)]
    try:
        for follower in followers:
            follower.wait_for(r"^applied #0A84FF$")
        first = daemon.etag()
        wait(page, lambda d: fleet(d) == [3, 3, first], timeout=10)
        assert version_rows(page) == [[first, 3, True]]
        assert text_of(page, "#fleet-summary") == "3 of 3 clients have applied the live version."

        # One follower pauses; the push reaches the other two, and the page shows it behind.
        laggard = followers[2]
        laggard.process.send_signal(signal.SIGSTOP)
        path = daemon.path("palette.yaml")
        pushed = time.monotonic()
        status, _, _ = daemon.request("PUT", "/v1/specs/palette.yaml",
                                      path.read_text().replace(ACCENT, PURPLE).encode(),
                                      {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200
        daemon.wait_for_new_bundle(first)
        second = daemon.etag()
        for follower in followers[:2]:
            follower.wait_for(r"^applied #AF52DE$")
        wait(page, lambda d: fleet(d) == [3, 2, second], timeout=10)
        print(f"fleet count on the page reached the followers {time.monotonic() - pushed:.3f} s after the push")
        assert version_rows(page) == [[second, 2, True], [first, 1, False]]
        assert text_of(page, "#fleet-summary") == \
            "2 of 3 clients have applied the live version; 1 on another version or none."
        lagging = page.find_elements(By.CSS_SELECTOR, "#fleet-lagging li")
        assert len(lagging) == 1 and f":{laggard.process.pid} " in lagging[0].get_attribute("data-instance") + " "
        assert first.strip('"')[:8] in lagging[0].text
        assert find(page, "#fleet-bar .segment.current").size["width"] > 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.save_screenshot(str(ARTIFACTS / "studio-fleet.png"))

        laggard.process.send_signal(signal.SIGCONT)
        laggard.wait_for(r"^applied #AF52DE$")
        wait(page, lambda d: fleet(d) == [3, 3, second], timeout=10)
        assert version_rows(page) == [[second, 3, True]]
        assert page.find_elements(By.CSS_SELECTOR, "#fleet-lagging li") == []
    finally:
        for follower in followers:
            follower.stop()


def history_rows(driver):
    """The listed publishes: [(revision, message, paths)], newest first."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#history-list .publish')].map((b) => ["
        "  Number(b.dataset.revision), b.querySelector('.message').textContent,"
        "  b.querySelector('.paths').textContent, b.querySelector('.time').textContent]);")


def diff_lines(driver, kind):
    return driver.execute_script(
        "return [...document.querySelectorAll(`#history-diff .${arguments[0]}`)].map((n) => n.textContent);", kind)


def test_on_a_folder_the_history_lists_the_folder_as_the_daemon_found_it(page, daemon):
    wait(page, lambda d: find(d, "#history").get_attribute("data-state") == "available")
    wait(page, lambda d: len(history_rows(d)) == 1)
    [(revision, message, paths, _)] = history_rows(page)
    assert (revision, message) == (1, "edited on disk")
    status, _, body = daemon.request("GET", "/v1/history?limit=50")
    assert status == 200
    assert json.loads(body)["entries"][0]["by"] == "disk"
    assert paths == ", ".join(json.loads(body)["entries"][0]["paths"])


def test_history_on_etcd_lists_publishes_and_restores_the_first(etcd_page, etcd_daemon, etcd_follower):
    page, daemon = etcd_page, etcd_daemon
    etcd_follower.wait_for(r"^applied #0A84FF$")
    wait(page, lambda d: len(history_rows(d)) == 1)
    [(first, message, paths, time)] = history_rows(page)
    assert (message, paths) == ("the example specs", "card.yaml, palette.yaml") and time
    original = daemon.file("palette.yaml")

    second = daemon.publish({"palette.yaml": original.replace(ACCENT, PURPLE)}, "a <b>purple</b> accent")["revision"]
    etcd_follower.wait_for(r"^applied #AF52DE$")
    wait(page, lambda d: [row[:3] for row in history_rows(d)] == [
        [second, "a <b>purple</b> accent", "palette.yaml"], [first, "the example specs", "card.yaml, palette.yaml"]])
    assert page.execute_script("return document.querySelectorAll('#history b').length") == 0

    find(page, f'.publish[data-revision="{first}"]').click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-diff .add"))
    assert [" ".join(line.split()) for line in diff_lines(page, "del")] == ['- "accent": "#AF52DE",']
    assert [" ".join(line.split()) for line in diff_lines(page, "add")] == ['+ "accent": "#0A84FF",']
    assert '"#0A84FF"' in text_of(page, "#history-bundle")
    assert not find(page, "#restore").is_enabled()

    unlock(page)
    assert find(page, "#restore").is_enabled()
    find(page, "#restore").click()
    assert find(page, "#restore-confirm").is_displayed()
    find(page, "#restore-cancel").click()
    assert not find(page, "#restore-confirm").is_displayed()
    assert daemon.file("palette.yaml") == original.replace(ACCENT, PURPLE)

    find(page, "#restore").click()
    find(page, "#restore-yes").click()
    wait(page, lambda d: find(d, "#restore-status").get_attribute("data-state") == "restored")
    assert daemon.file("palette.yaml") == original
    etcd_follower.wait_for(r"^applied #0A84FF$")
    wait(page, lambda d: len(history_rows(d)) == 3)
    restored = history_rows(page)[0]
    assert restored[1] == f"restore revision {first}"
    assert text_of(page, "#restore-status") == f"Restored revision {first} as revision {restored[0]}."
    wait(page, lambda d: background(d, "Live", "card.button") == "rgb(10, 132, 255)")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-diff [data-changes='0'], #history-diff p"))
    wait(page, lambda d: "same specs as the live version" in (text_of(d, "#history-diff") or ""))
    ARTIFACTS.mkdir(exist_ok=True)
    page.save_screenshot(str(ARTIFACTS / "studio-history.png"))


def test_restoring_a_compacted_revision_says_so_and_changes_nothing(etcd_page, etcd_daemon, etcd):
    page, daemon = etcd_page, etcd_daemon
    wait(page, lambda d: len(history_rows(d)) == 1)
    first = history_rows(page)[0][0]
    original = daemon.file("palette.yaml")
    daemon.publish({"palette.yaml": original.replace(ACCENT, PURPLE)}, "purple")
    wait(page, lambda d: len(history_rows(d)) == 2)
    page.execute_script("window.listDrawn = document.querySelector('#history-list .publish');")
    unlock(page)
    find(page, f'.publish[data-revision="{first}"]').click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-diff .add"))

    etcd.compact()
    version = daemon.etag()
    find(page, "#restore").click()
    find(page, "#restore-yes").click()
    wait(page, lambda d: find(d, "#restore-status").get_attribute("data-state") == "compacted")
    assert text_of(page, "#restore-status") == (
        f"Not restored: revision {first} was compacted: etcd no longer keeps the specs as they were then.")
    assert daemon.etag() == version
    assert daemon.file("palette.yaml") == original.replace(ACCENT, PURPLE)
    # Nor did the page read the daemon again: unlocking only turns the editing on.
    assert page.execute_script("return document.querySelector('#history-list .publish') === window.listDrawn;")

    # Chosen again, the revision's bundle itself is gone: the page says so instead of a diff.
    find(page, f'.publish[data-revision="{first}"]').click()
    wait(page, lambda d: "was compacted" in (text_of(d, "#history-diff .problem-text") or ""))
    assert not find(page, "#restore").is_enabled()


def test_a_restore_over_a_change_the_page_has_not_seen_is_refused(etcd_page, etcd_daemon):
    page, daemon = etcd_page, etcd_daemon
    # Without its event stream the page keeps showing the version it loaded, as a page does
    # between a publish elsewhere and the event about it (its preview's stylesheet may follow on:
    # what a restore replaces is the version the page's diff was drawn against).
    page.execute_cdp_cmd("Network.enable", {})
    page.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/events*"]})
    try:
        page.get(daemon.base + "/studio/")
        wait(page, lambda d: len(history_rows(d)) == 1)
        first = history_rows(page)[0][0]
        shown = find(page, "#version").get_attribute("data-etag")
        purple = daemon.file("palette.yaml").replace(ACCENT, PURPLE)
        daemon.publish({"palette.yaml": purple}, "purple")
        daemon.wait_for_new_bundle(shown)
        version = daemon.etag()
        unlock(page)
        find(page, f'.publish[data-revision="{first}"]').click()
        wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-diff .add"))
        find(page, "#restore").click()
        find(page, "#restore-yes").click()
        wait(page, lambda d: find(d, "#restore-status").get_attribute("data-state") == "changed")
        assert text_of(page, "#restore-status") == (
            "Not restored: the live specs changed after this page showed them. "
            "Look at the new diff and restore again.")
        assert daemon.etag() == version
        assert daemon.file("palette.yaml") == purple
    finally:
        page.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        # The blocked event stream is the only thing the page logged as an error (besides the
        # refusal it shows, and signing being off).
        assert all("/v1/events" in entry["message"] or " 412 " in entry["message"] or signing_off(entry["message"])
                   for entry in page.get_log("browser") if entry["level"] == "SEVERE")
