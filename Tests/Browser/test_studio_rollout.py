"""Livery Studio's rollout panel in a real browser (headless Chromium) against a real `livery
serve`: a rollout started over HTTP shows its share and its cohort's counts; the push token's
holder sets its share, aborts it and completes it, each only after a confirmation."""

import json

import pytest
from selenium.webdriver.common.by import By

from conftest import TOKEN, Daemon, open_studio
from test_studio import find, text_of, unlock, wait

ACCENT = '"#0A84FF"'
PURPLE = '"#AF52DE"'
WRITE = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


@pytest.fixture
def rollout_daemon(specs):
    # The folder store keeps a running rollout in its state folder: the test's own.
    running = Daemon(specs, ["--state-dir", str(specs.parent / "state")])
    yield running
    running.stop()


@pytest.fixture
def rollout_page(browser, rollout_daemon, request):
    yield from open_studio(browser, rollout_daemon, request)


def rollout(daemon):
    """GET /v1/rollout's body, or None when no rollout has run."""
    status, _, body = daemon.request("GET", "/v1/rollout")
    return json.loads(body) if status == 200 else None


def panel(driver):
    """(state, share) as the panel shows them."""
    return driver.execute_script(
        "const d = document.getElementById('rollout').dataset; return [d.state, d.percent];")


def actions_shown(driver):
    return driver.find_element(By.ID, "rollout-actions").is_displayed()


def start(daemon, share):
    """Pushes palette.yaml in purple as a rollout's candidate to `share`."""
    text = daemon.path("palette.yaml").read_text().replace(ACCENT, PURPLE)
    body = json.dumps({"files": {"palette.yaml": text}, "message": "purple, a share first", "rollout": share})
    status, _, reply = daemon.request("POST", "/v1/specs", body.encode(), WRITE)
    assert status == 200, reply
    return rollout(daemon)


def confirm(driver, button, expected_question):
    find(driver, button).click()
    wait(driver, lambda d: d.find_element(By.ID, "rollout-confirm").is_displayed())
    assert expected_question in text_of(driver, "#rollout-confirm-text")
    find(driver, "#rollout-yes").click()


def test_the_panel_shows_a_rollout_and_sets_its_share_then_aborts_it(rollout_page, rollout_daemon):
    page, daemon = rollout_page, rollout_daemon
    wait(page, lambda d: panel(d)[0] == "none")
    started = start(daemon, "10%")
    assert started["state"] == "running" and started["percent"] == 10
    wait(page, lambda d: panel(d) == ["running", "10"])
    assert started["id"] in text_of(page, "#rollout-summary")
    assert "10 % of clients get candidate" in text_of(page, "#rollout-summary")
    assert page.execute_script(
        "return [...document.querySelectorAll('#rollout-counts dd')].map((dd) => dd.dataset.count);"
    ) == ["expected", "applied", "refused", "problems"]
    assert not actions_shown(page), "read-only: the page offers no change without the token"

    unlock(page)
    wait(page, actions_shown)
    share = find(page, "#rollout-percent")
    share.clear()
    share.send_keys("25")
    find(page, "#rollout-set").click()
    wait(page, lambda d: d.find_element(By.ID, "rollout-confirm").is_displayed())
    assert rollout(daemon)["percent"] == 10, "nothing changes before the confirmation"
    find(page, "#rollout-cancel").click()
    assert rollout(daemon)["percent"] == 10
    wait(page, actions_shown)
    share = find(page, "#rollout-percent")
    share.clear()
    share.send_keys("25")
    confirm(page, "#rollout-set", "to 25 %")
    wait(page, lambda d: panel(d) == ["running", "25"])
    assert rollout(daemon)["percent"] == 25

    confirm(page, "#rollout-abort", "Abort rollout")
    wait(page, lambda d: panel(d)[0] == "aborted")
    after = rollout(daemon)
    assert after["state"] == "aborted" and after["abortReason"] == "aborted in Livery Studio"
    assert not actions_shown(page)
    # Nobody gets the candidate any more: the summary says so, not the share it had.
    summary = text_of(page, "#rollout-summary")
    assert "was aborted at 25 %" in summary and "every client returned to stable" in summary, summary
    assert "of clients get" not in summary, summary
    assert daemon.request("GET", "/v1/spec")[1]["ETag"] == started["stable"], "the stable version stays"


def test_completing_from_the_panel_makes_the_candidate_stable(rollout_page, rollout_daemon):
    page, daemon = rollout_page, rollout_daemon
    started = start(daemon, "50%")
    unlock(page)
    wait(page, lambda d: panel(d) == ["running", "50"] and actions_shown(d))
    confirm(page, "#rollout-complete", "becomes the stable version")
    wait(page, lambda d: panel(d)[0] == "completed", timeout=10)
    summary = text_of(page, "#rollout-summary")
    assert "became the stable version of every client" in summary and "of clients get" not in summary, summary
    daemon.wait_for_new_bundle(started["stable"])
    assert daemon.request("GET", "/v1/spec")[1]["ETag"] == started["candidate"]
    assert PURPLE in daemon.file("palette.yaml")
