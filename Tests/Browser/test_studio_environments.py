"""Livery Studio across environments, in a real browser (headless Chromium) against a real
`livery serve --environments ROOT` with `production` and `staging`: the menu switches every panel
to the chosen environment and keeps it in the page's URL; the promotion panel previews promoting
staging to production, performs it, and shows the daemon's problem when it refuses; a promotion
planned for later is listed in the Schedule panel by its source and cancelled there."""

import datetime
import json
import shutil

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import TOKEN, Daemon, open_studio
from test_studio import ACCENT, find, text_of, unlock, wait

BLUE = '"#0A84FF"'
ORANGE = '"#FF9F0A"'
WRITE = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


@pytest.fixture
def environments_daemon(specs):
    """Two environments from the example specs: staging's accent is orange and it has one more file."""
    root = specs.parent / "Environments"
    for name in ("production", "staging"):
        shutil.copytree(specs, root / name)
    palette = root / "staging" / "palette.yaml"
    palette.write_text(palette.read_text().replace(BLUE, ORANGE))
    (root / "staging" / "extra.yaml").write_text("specs:\n  extra:\n    - { type: CornerRadius, radius: 3 }\n")
    running = Daemon(root, environments=True)
    yield running
    running.stop()


@pytest.fixture
def environments_page(browser, environments_daemon, request):
    yield from open_studio(browser, environments_daemon, request)


def etag(daemon, environment):
    return daemon.request("GET", f"/v1/environments/{environment}/spec")[1]["ETag"]


def tabs(driver):
    return [tab.get_attribute("data-path") for tab in driver.find_elements(By.CSS_SELECTOR, "#file-tabs .tab")]


def shown_version(driver):
    return find(driver, "#version").get_attribute("data-etag")


def choose_environment(driver, name):
    wait(driver, lambda d: find(d, "#environment-picker").is_displayed())
    Select(find(driver, "#environment")).select_by_value(name)
    wait(driver, lambda d: d.current_url.endswith(f"?environment={name}"))


def test_the_menu_switches_every_panel_to_staging_and_the_url_keeps_it(environments_page, environments_daemon):
    page, daemon = environments_page, environments_daemon
    # The daemon has no `default` environment: the page shows its first one.
    wait(page, lambda d: d.current_url.endswith("?environment=production"))
    wait(page, lambda d: shown_version(d) == etag(daemon, "production"))
    options = page.execute_script(
        "return [...document.querySelectorAll('#environment option')].map((o) => [o.value, o.dataset.etag]);")
    assert options == [["production", etag(daemon, "production")], ["staging", etag(daemon, "staging")]]
    wait(page, lambda d: tabs(d) == ["card.yaml", "palette.yaml"])

    choose_environment(page, "staging")
    wait(page, lambda d: shown_version(d) == etag(daemon, "staging"))
    wait(page, lambda d: tabs(d) == ["card.yaml", "extra.yaml", "palette.yaml"])
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    assert find(page, ACCENT + " .value").text == "#FF9F0A"
    assert find(page, "#environment").get_attribute("value") == "staging"
    assert "staging" not in [o.get_attribute("value") for o in page.find_elements(By.CSS_SELECTOR, "#promotion-from option")]

    page.refresh()
    wait(page, lambda d: tabs(d) == ["card.yaml", "extra.yaml", "palette.yaml"])
    assert page.current_url.endswith("?environment=staging"), "a reload keeps the environment"
    status = json.loads(daemon.request("GET", "/v1/environments/staging/status")[2])
    assert status["environment"] == "staging"
    wait(page, lambda d: shown_version(d) == status["etag"])


def test_a_daemon_with_only_default_shows_no_environment_menu(page, daemon):
    wait(page, lambda d: shown_version(d) == daemon.etag())
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#environment option"))
    assert not find(page, "#environment-picker").is_displayed()
    assert not find(page, "#promotion").is_displayed()
    assert page.current_url.endswith("/studio/")


def preview_staging(page):
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#promotion-from option"))
    Select(find(page, "#promotion-from")).select_by_value("staging")
    find(page, "#promotion-preview").click()
    wait(page, lambda d: find(d, "#promotion-preview-result").is_displayed())


def test_the_preview_lists_the_changes_and_promoting_changes_production(environments_page, environments_daemon):
    page, daemon = environments_page, environments_daemon
    production, staging = etag(daemon, "production"), etag(daemon, "staging")
    wait(page, lambda d: shown_version(d) == production)
    assert text_of(page, "#promotion-target") == "production"
    unlock(page)
    preview_staging(page)

    files = page.execute_script(
        "return [...document.querySelectorAll('#promotion-files li')].map((li) => [li.dataset.change, li.dataset.path]);")
    assert files == [["added", "extra.yaml"], ["changed", "palette.yaml"]]
    identifiers = [e.get_attribute("data-identifier") for e in page.find_elements(By.CSS_SELECTOR, ".promotion-identifier")]
    assert identifiers == ["card.badge", "card.button", "extra"]
    button = find(page, '.promotion-identifier[data-identifier="card.button"]')
    assert 'BackgroundColor {"color":"#0A84FF"}' in button.find_element(By.CSS_SELECTOR, "td.before").text
    assert 'BackgroundColor {"color":"#FF9F0A"}' in button.find_element(By.CSS_SELECTOR, "td.after").text
    assert find(page, "#promotion-preview-result").get_attribute("data-target-etag") == production
    assert production.strip('"')[:8] in text_of(page, "#promotion-summary")

    find(page, "#promotion-message").send_keys("orange for everyone")
    find(page, "#promotion-perform").click()
    wait(page, lambda d: find(d, "#promotion-status").get_attribute("data-state") == "promoted")
    # The answer comes once the files are written; the daemon serves them once it has loaded them.
    wait(page, lambda d: etag(daemon, "production") == staging, message="production is not staging's version")
    status, _, body = daemon.request("GET", "/v1/environments/production/specs/palette.yaml")
    assert status == 200 and ORANGE in body.decode()
    history = json.loads(daemon.request("GET", "/v1/environments/production/history?limit=1")[2])["entries"]
    assert history[0]["message"].endswith(": orange for everyone") and "promoted from staging" in history[0]["message"]
    wait(page, lambda d: shown_version(d) == staging, message="the page follows production's new version")


def test_a_promotion_refused_for_a_stale_if_match_shows_the_problem(environments_page, environments_daemon):
    page, daemon = environments_page, environments_daemon
    wait(page, lambda d: shown_version(d) == etag(daemon, "production"))
    unlock(page)
    preview_staging(page)
    # Production changes after the preview: the promotion's If-Match no longer holds.
    before = etag(daemon, "production")
    late = "specs:\n  late:\n    - { type: CornerRadius, radius: 1 }\n"
    body = json.dumps({"files": {"late.yaml": late}, "message": "a late change"}).encode()
    status, _, reply = daemon.request("POST", "/v1/environments/production/specs", body, WRITE)
    assert status == 200, reply
    changed = json.loads(reply)["etag"]
    assert changed != before
    wait(page, lambda d: etag(daemon, "production") == changed, message="the daemon did not load the late change")

    find(page, "#promotion-perform").click()
    wait(page, lambda d: find(d, "#promotion-status").get_attribute("data-state") == "refused")
    shown = text_of(page, "#promotion-status")
    assert shown.startswith("Not promoted: Precondition failed: If-Match does not match the bundle"), shown
    assert etag(daemon, "production") == changed, "nothing was promoted"


def test_a_planned_promotion_is_listed_with_its_source_and_cancelled(environments_page, environments_daemon):
    page, daemon = environments_page, environments_daemon
    at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    plan = {"action": "promotion", "at": at, "from": "staging", "message": "orange tonight"}
    status, _, body = daemon.request("POST", "/v1/environments/production/schedule", json.dumps(plan).encode(), WRITE)
    assert status == 201, body
    planned = json.loads(body)
    item = f'.scheduled[data-id="{planned["id"]}"]'
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, item))
    shown = find(page, item).text
    assert f"promotion {planned['id']}" in shown and "orange tonight" in shown and "promotion · planned" in shown, shown
    # A promotion is listed by its source and revision, not by the paths it writes.
    by = text_of(page, f"{item} .change-by")
    assert by.endswith(f" · from staging at revision {planned['revision']}"), by
    unlock(page)
    wait(page, lambda d: find(d, f"{item} button[data-cancel]").is_enabled())
    find(page, f"{item} button[data-cancel]").click()
    wait(page, lambda d: find(d, item).get_attribute("data-state") == "cancelled")
    assert text_of(page, "#schedule-status") == f"Cancelled promotion {planned['id']}."
