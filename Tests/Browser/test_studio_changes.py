"""Change requests and the schedule in Livery Studio, in a real browser (headless Chromium)
against a real `livery serve` whose environment is protected (one approval): a save is held as a
change request and changes nothing; another key sees its preview, approves it in the Changes
panel and the page shows the new version, or rejects it with a reason; the author's key, even one
that may approve, has no usable Approve; a plan past its time shows expired; a planned push, and a
plan a reviewer approved, is listed in the Schedule panel and cancelled there."""

import datetime
import json

import pytest
from selenium.webdriver.common.by import By

from conftest import TOKEN
from test_studio import ACCENT, background, file_state, find, open_file, set_value, text_of, unlock, wait

ADMIN = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
BLUE, RED = '"#0A84FF"', '"#FF3B30"'
RED_RGB = "rgb(255, 59, 48)"


@pytest.fixture
def reviewer(daemon):
    """The daemon's environment protected with one approval, and a key `reviewer` that may approve."""
    status, _, body = daemon.request("PUT", "/v1/protection", json.dumps({"approvals": 1}).encode(), ADMIN)
    assert status == 200, body
    status, _, body = daemon.request(
        "POST", "/v1/keys", json.dumps({"name": "reviewer", "scopes": ["read", "approve"], "environments": ["*"]}).encode(),
        ADMIN)
    assert status == 201, body
    return json.loads(body)["key"]


def unlock_with(driver, key, name):
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    find(driver, "#token").send_keys(key)
    find(driver, "#unlock").click()
    wait(driver, lambda d: find(d, "#mode").get_attribute("title") == f"key {name}")


def add_key(daemon, name, scopes):
    status, _, body = daemon.request(
        "POST", "/v1/keys", json.dumps({"name": name, "scopes": scopes, "environments": ["*"]}).encode(), ADMIN)
    assert status == 201, body
    return json.loads(body)["key"]


def ask_for_red(daemon, key=TOKEN):
    """A push of a red accent by `key`, held by the protected environment: its change request."""
    red = daemon.file("palette.yaml").replace(BLUE, RED)
    status, headers, body = daemon.request(
        "PUT", "/v1/specs/palette.yaml", red.encode(), {"Authorization": f"Bearer {key}"})
    assert status == 202, body
    change = json.loads(body)
    assert headers["Location"].endswith(f"/changes/{change['id']}")
    return change


def plan_red(daemon, after, message, expected):
    """A push of a red accent planned `after` from now (`POST /v1/schedule`), answered `expected`
    (201 planned, 202 held by the protected environment): the body of the answer."""
    at = (datetime.datetime.now(datetime.timezone.utc) + after).strftime("%Y-%m-%dT%H:%M:%SZ")
    red = daemon.file("palette.yaml").replace(BLUE, RED)
    plan = {"action": "push", "at": at, "message": message, "files": {"palette.yaml": red}}
    status, _, body = daemon.request("POST", "/v1/schedule", json.dumps(plan).encode(), ADMIN)
    assert status == expected, body
    return json.loads(body)


def state_of(driver, selector):
    """The data-state of the first match, read in one step (the panels redraw what changed)."""
    return driver.execute_script("return document.querySelector(arguments[0])?.dataset.state ?? null", selector)


def verdict_button(driver, change, verdict):
    selector = f'#change-{change} button[data-verdict="{verdict}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    return find(driver, selector)


def test_a_save_on_a_protected_environment_is_held_and_its_author_cannot_approve(page, daemon, reviewer):
    before = daemon.file("palette.yaml")
    unlock(page)
    wait(page, lambda d: text_of(d, "#protection") == "protected · 1 approval")
    open_file(page, "palette.yaml")
    editor = find(page, "#editor")
    set_value(page, editor, editor.get_attribute("value").replace(BLUE, RED))
    wait(page, lambda d: not find(d, "#save").get_attribute("disabled"))
    find(page, "#save").click()
    wait(page, lambda d: file_state(d) == "held")
    shown = text_of(page, "#file-status")
    assert shown.startswith("Held for approval: change 1 (0/1 approvals)"), shown
    assert daemon.file("palette.yaml") == before, "a held save changes nothing"

    # The link leads to the change request, with its preview as the promotion panel draws it.
    find(page, "#file-status a.held-link").click()
    wait(page, lambda d: "revealed" in (find(d, "#change-1").get_attribute("class") or ""))
    item = find(page, "#change-1")
    assert item.get_attribute("data-state") == "pending"
    files = page.execute_script(
        "return [...document.querySelectorAll('#change-1 .promotion-files li')].map((li) => [li.dataset.change, li.dataset.path]);")
    assert files == [["changed", "palette.yaml"]]
    button = item.find_element(By.CSS_SELECTOR, '.promotion-identifier[data-identifier="card.button"]')
    assert 'BackgroundColor {"color":"#FF3B30"}' in button.find_element(By.CSS_SELECTOR, "td.after").text
    # The author's own key holds admin, yet cannot approve its change.
    approve = verdict_button(page, 1, "approve")
    assert not approve.is_enabled()
    assert approve.get_attribute("title") == "its author's key cannot approve it"
    assert daemon.file("palette.yaml") == before


def test_another_key_approves_in_the_panel_and_the_change_applies(page, daemon, reviewer):
    before = daemon.etag()
    change = ask_for_red(daemon)
    unlock_with(page, reviewer, "reviewer")
    wait(page, lambda d: verdict_button(d, change["id"], "approve").is_enabled())
    # The reviewer sees what it approves: the file it changes and the identifiers' new traits.
    item = f"#change-{change['id']}"
    files = page.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .promotion-files li')]"
        ".map((li) => [li.dataset.change, li.dataset.path]);", item)
    assert files == [["changed", "palette.yaml"]]
    button = find(page, f'{item} .promotion-identifier[data-identifier="card.button"]')
    assert 'BackgroundColor {"color":"#FF3B30"}' in button.find_element(By.CSS_SELECTOR, "td.after").text
    assert find(page, "#version").get_attribute("data-etag") == before
    find(page, f"{item} .change-reason").send_keys("red it is")
    verdict_button(page, change["id"], "approve").click()
    wait(page, lambda d: state_of(d, "#changes-status") == "applied")
    wait(page, lambda d: RED in daemon.file("palette.yaml"), message="the approved change was not applied")
    entries = json.loads(daemon.request("GET", "/v1/history?limit=10")[2])["entries"]
    written = [entry for entry in entries if entry["paths"]][0]
    assert written["message"].startswith(f"change {change['id']}") and "approved by reviewer" in written["message"]
    assert entries[0]["message"].startswith(f"change {change['id']} applied as revision"), entries[0]
    assert entries[0]["by"] == "reviewer", entries[0]
    wait(page, lambda d: state_of(d, item) == "applied")
    # The page moves to the new version: its ETag, and the live preview drawn red.
    after = daemon.etag()
    assert after != before
    wait(page, lambda d: find(d, "#version").get_attribute("data-etag") == after)
    wait(page, lambda d: background(d, "Live", "card.button") == RED_RGB)
    assert not page.find_elements(By.CSS_SELECTOR, f"{item} button[data-verdict]"), "a closed change has no review"


def test_another_key_rejects_with_a_reason_and_nothing_is_written(page, daemon, reviewer):
    before = daemon.file("palette.yaml")
    change = ask_for_red(daemon)
    unlock_with(page, reviewer, "reviewer")
    wait(page, lambda d: verdict_button(d, change["id"], "reject").is_enabled())
    find(page, f"#change-{change['id']} .change-reason").send_keys("not this week")
    verdict_button(page, change["id"], "reject").click()
    wait(page, lambda d: state_of(d, f"#change-{change['id']}") == "rejected")
    assert "rejected by reviewer: not this week" in text_of(page, f"#change-{change['id']}")
    shown = json.loads(daemon.request("GET", f"/v1/changes/{change['id']}")[2])
    assert shown["state"] == "rejected" and shown["rejection"]["message"] == "not this week", shown
    assert daemon.file("palette.yaml") == before


def test_the_authors_key_has_no_usable_approve_even_with_the_approve_scope(page, daemon, reviewer):
    author = add_key(daemon, "author", ["read", "push", "approve"])
    mine = ask_for_red(daemon, author)
    unlock_with(page, author, "author")
    approve = verdict_button(page, mine["id"], "approve")
    wait(page, lambda d: find(d, "#mode").get_attribute("title") == "key author")
    assert not approve.is_enabled()
    assert approve.get_attribute("title") == "its author's key cannot approve it"
    # A click on it anyway sends nothing: the change stays pending, nothing is written.
    page.execute_script("arguments[0].disabled = false; arguments[0].click();", approve)
    shown = json.loads(daemon.request("GET", f"/v1/changes/{mine['id']}")[2])
    assert shown["state"] == "pending" and shown["approvals"] == [], shown
    assert RED not in daemon.file("palette.yaml")


def test_a_plan_past_its_time_shows_expired_without_review(page, daemon, reviewer):
    change = plan_red(daemon, datetime.timedelta(seconds=2), "red soon", 202)
    unlock_with(page, reviewer, "reviewer")
    item = f"#change-{change['id']}"
    wait(page, lambda d: state_of(d, item) == "expired", timeout=10)
    assert "expired" in text_of(page, f"{item} .change-state")
    assert "its time came before its approvals: it never runs" in text_of(page, item)
    assert not page.find_elements(By.CSS_SELECTOR, f"{item} button[data-verdict]")
    assert RED not in daemon.file("palette.yaml")


def test_a_plan_a_reviewer_approved_is_cancelled_from_the_schedule_panel(page, daemon, reviewer):
    change = plan_red(daemon, datetime.timedelta(hours=1), "red later", 202)
    assert not json.loads(daemon.request("GET", "/v1/schedule")[2])["changes"], "nothing planned before approval"
    unlock_with(page, reviewer, "reviewer")
    wait(page, lambda d: verdict_button(d, change["id"], "approve").is_enabled())
    verdict_button(page, change["id"], "approve").click()
    wait(page, lambda d: state_of(d, f"#change-{change['id']}") == "applied")

    # The plan is in the schedule now; cancelling it needs the key that may write it, not an approval.
    planned = change["plan"]["id"]
    item = f'.scheduled[data-id="{planned}"]'
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, item))
    assert f"change {change['id']}: red later (approved by reviewer)" in find(page, item).text
    assert not find(page, f"{item} button[data-cancel]").is_enabled(), "the reviewer may not push"
    find(page, "#lock").click()
    unlock_with(page, TOKEN, "token-file")
    wait(page, lambda d: find(d, f"{item} button[data-cancel]").is_enabled())
    find(page, f"{item} button[data-cancel]").click()
    wait(page, lambda d: state_of(d, item) == "cancelled")
    listing = json.loads(daemon.request("GET", "/v1/schedule")[2])
    assert [c["state"] for c in listing["changes"] if c["id"] == planned] == ["cancelled"]
    assert RED not in daemon.file("palette.yaml")


def test_a_planned_push_is_listed_and_cancelled_from_the_schedule_panel(page, daemon):
    planned = plan_red(daemon, datetime.timedelta(hours=1), "red at noon", 201)
    item = f'.scheduled[data-id="{planned["id"]}"]'
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, item))
    assert "red at noon" in find(page, item).text and "palette.yaml" in find(page, item).text
    assert not find(page, f"{item} button[data-cancel]").is_enabled(), "no key: Cancel disabled"
    unlock(page)
    wait(page, lambda d: find(d, f"{item} button[data-cancel]").is_enabled())
    find(page, f"{item} button[data-cancel]").click()
    wait(page, lambda d: state_of(d, item) == "cancelled")
    assert text_of(page, "#schedule-status") == f"Cancelled push {planned['id']}."
    listing = json.loads(daemon.request("GET", "/v1/schedule")[2])
    assert [c["state"] for c in listing["changes"] if c["id"] == planned["id"]] == ["cancelled"]
