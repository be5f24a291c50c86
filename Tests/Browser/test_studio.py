"""Livery Studio in a real browser (headless Chromium), against a real `livery serve`."""

import json
import shutil
import time

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, ROOT, TOKEN, Daemon, open_studio

ACCENT = '.variable[data-path="colors.accent"]'


def wait(driver, condition, timeout=5, message=""):
    # The panels redraw every few seconds: a node found by the condition can be replaced before
    # it is read, and the condition is then asked again, as for a node not there yet.
    return WebDriverWait(
        driver, timeout, poll_frequency=0.02,
        ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
    ).until(lambda d: condition(d), message)


def find(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def text_of(driver, selector):
    """The text of the first match, read in one step (the page redraws as bundles arrive)."""
    return driver.execute_script("return document.querySelector(arguments[0])?.textContent ?? null", selector)


def unlock(driver):
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    find(driver, "#token").send_keys(TOKEN)
    find(driver, "#unlock").click()
    wait(driver, lambda d: text_of(d, "#mode") == "editing")


def set_value(driver, element, value, event="input"):
    driver.execute_script(
        "arguments[0].value = arguments[1];"
        "arguments[0].dispatchEvent(new Event(arguments[2], {bubbles: true}));", element, value, event)


def open_file(driver, name):
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'.tab[data-path="{name}"]'))
    find(driver, f'.tab[data-path="{name}"]').click()
    wait(driver, lambda d: "active" in find(d, f'.tab[data-path="{name}"]').get_attribute("class"))


# A part of a preview scene: the unsaved scene is in a shadow root (its own stylesheet).
PART = ("const s = document.querySelector(`.scene[data-scene='${arguments[0]}']`);"
        "const n = (s?.querySelector('.stage')?.shadowRoot ?? s)?.querySelector(`[data-identifier='${arguments[1]}']`);")


def background(driver, scene, identifier):
    return driver.execute_script(PART + "return n && getComputedStyle(n).backgroundColor;", scene, identifier)


def font_weight(driver, scene, identifier):
    return driver.execute_script(PART + "return n && getComputedStyle(n).fontWeight;", scene, identifier)


def file_state(driver):
    return find(driver, "#file-status").get_attribute("data-state")


def test_shows_identifiers_places_variables_and_themes(page, daemon):
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    wait(page, lambda d: background(d, "Live", "card.button") == "rgb(10, 132, 255)")
    find(page, "#search").send_keys("title")
    wait(page, lambda d: [e.get_attribute("data-identifier") for e in d.find_elements(By.CSS_SELECTOR, ".identifier")] == ["card.title"])
    find(page, '.identifier[data-identifier="card.title"]').click()
    wait(page, lambda d: find(d, "#detail-title").get_attribute("textContent") == "Traits of card.title")
    traits = page.find_elements(By.CSS_SELECTOR, "#identifier-detail .trait")
    assert [t.get_attribute("data-type") for t in traits] == ["Font", "Font"]
    first = traits[0].text
    assert "card.yaml:10:7" in first and "from text.base" in first
    assert "@type.family" in first and "@colors.text" in first and "#1C1C1E" in first
    assert "card.yaml:25:7" in traits[1].text
    assert find(page, ACCENT).find_element(By.CSS_SELECTOR, ".place").text == "palette.yaml:5:13"

    find(page, '.theme[data-theme="dark"] button').click()
    wait(page, lambda d: background(d, "Live", "card.button") == "rgb(100, 210, 255)")
    assert "#F2F2F7" in find(page, "#identifier-detail .trait").text
    assert find(page, ACCENT).find_element(By.CSS_SELECTOR, ".place").text == "palette.yaml:23:15 (theme)"
    overrides = find(page, '.theme[data-theme="dark"]').text
    assert "colors.accent" in overrides and "#64D2FF" in overrides

    set_value(page, find(page, "#search"), "")
    set_value(page, find(page, "#look"), "0", "change")
    find(page, '.identifier[data-identifier="card"]').click()
    unlock(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.save_screenshot(str(ARTIFACTS / "studio-overview.png"))


def test_colour_picked_and_saved_reaches_the_file_and_a_following_program(needs_dry_run, page, daemon, follower):
    follower.wait_for(r"^applied #0A84FF$")
    unlock(page)
    palette_before = daemon.path("palette.yaml").read_text()
    row = find(page, ACCENT)
    set_value(page, row.find_element(By.CSS_SELECTOR, ".picker"), "#ff3b30")
    set_value(page, find(page, ACCENT).find_element(By.CSS_SELECTOR, ".alpha"), "80")
    wait(page, lambda d: 'accent: "#FF3B30CC"' in find(d, "#editor").get_attribute("value"))
    wait(page, lambda d: file_state(d) == "valid", message="the dry run did not accept the edit")
    wait(page, lambda d: background(d, "Unsaved", "card.button") == "rgba(255, 59, 48, 0.8)",
         message="the unsaved scene did not take the daemon's dry-run stylesheet")
    assert background(page, "Live", "card.button") == "rgb(10, 132, 255)"
    assert daemon.path("palette.yaml").read_text() == palette_before
    ARTIFACTS.mkdir(exist_ok=True)
    page.save_screenshot(str(ARTIFACTS / "studio-unsaved-colour.png"))

    find(page, "#save").click()
    wait(page, lambda d: file_state(d) == "saved")
    assert 'accent: "#FF3B30CC"' in daemon.path("palette.yaml").read_text()
    follower.wait_for(r"^applied #FF3B30CC$")
    wait(page, lambda d: background(d, "Live", "card.button") == "rgba(255, 59, 48, 0.8)")


def test_a_bad_value_is_marked_at_its_line_and_column_and_nothing_is_written(page, daemon):
    unlock(page)
    before = daemon.path("palette.yaml").read_bytes()
    version = find(page, "#version").get_attribute("data-etag")
    open_file(page, "palette.yaml")
    editor = find(page, "#editor")
    set_value(page, editor, editor.get_attribute("value").replace('"#0A84FF"', '"#0A84FG"'))
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ".problem.here"))
    problem = text_of(page, ".problem.here")
    assert problem.startswith("palette.yaml:5:13: error: "), problem
    assert "invalid colour '#0A84FG'" in problem, problem
    assert page.find_elements(By.CSS_SELECTOR, '.gutter .line.error[data-line="5"]')
    assert file_state(page) == "invalid"
    time.sleep(0.3)
    assert daemon.path("palette.yaml").read_bytes() == before
    assert find(page, "#version").get_attribute("data-etag") == version


def test_an_edit_on_disk_and_a_push_from_elsewhere_appear(page, daemon):
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    open_file(page, "palette.yaml")
    version = find(page, "#version").get_attribute("data-etag")
    path = daemon.path("palette.yaml")
    path.write_text(path.read_text().replace('"#0A84FF"', '"#34C759"'))
    started = time.monotonic()
    wait(page, lambda d: text_of(d, f"{ACCENT} code.value") == "#34C759")
    print(f"disk edit shown after {time.monotonic() - started:.3f} s")
    assert find(page, "#version").get_attribute("data-etag") != version
    wait(page, lambda d: '"#34C759"' in find(d, "#editor").get_attribute("value"))
    wait(page, lambda d: background(d, "Live", "card.button") == "rgb(52, 199, 89)")

    pushed = path.read_text().replace('"#34C759"', '"#AF52DE"').encode()
    status, _, _ = daemon.request("PUT", "/v1/specs/palette.yaml", pushed, {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200
    wait(page, lambda d: text_of(d, f"{ACCENT} code.value") == "#AF52DE")
    wait(page, lambda d: '"#AF52DE"' in find(d, "#editor").get_attribute("value"))


def test_a_conflicting_save_shows_both_versions_and_loses_nothing(needs_dry_run, page, daemon):
    unlock(page)
    open_file(page, "card.yaml")
    editor = find(page, "#editor")
    mine = editor.get_attribute("value") + "# mine\n"
    set_value(page, editor, mine)
    wait(page, lambda d: file_state(d) == "valid")
    version = find(page, "#version").get_attribute("data-etag")
    theirs = daemon.path("card.yaml").read_text().replace("radius: 8 }", "radius: 9 }  # theirs")
    assert "# theirs" in theirs
    daemon.path("card.yaml").write_text(theirs)
    wait(page, lambda d: find(d, "#version").get_attribute("data-etag") != version)
    assert find(page, "#editor").get_attribute("value") == mine

    find(page, "#save").click()
    wait(page, lambda d: find(d, "#conflict").is_displayed())
    assert file_state(page) == "conflict"
    assert "# mine" in text_of(page, "#conflict-mine")
    assert "# theirs" in text_of(page, "#conflict-theirs")
    assert daemon.path("card.yaml").read_text() == theirs
    ARTIFACTS.mkdir(exist_ok=True)
    page.save_screenshot(str(ARTIFACTS / "studio-conflict.png"))

    find(page, "#keep-mine").click()
    wait(page, lambda d: file_state(d) == "saved")
    assert daemon.path("card.yaml").read_text() == mine


def test_without_the_token_the_studio_is_read_only(page, daemon):
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    assert text_of(page, "#mode") == "read-only"
    editor = find(page, "#editor")
    wait(page, lambda d: "specs:" in editor.get_attribute("value"))
    assert editor.get_attribute("readonly") is not None
    before = editor.get_attribute("value")
    editor.send_keys("typed")
    assert editor.get_attribute("value") == before
    assert not find(page, "#save").is_enabled()
    assert not find(page, ACCENT).find_element(By.CSS_SELECTOR, ".picker").is_enabled()
    assert page.get_cookies() == []
    assert page.execute_script("return Object.keys(localStorage).length") == 0

    unlock(page)
    assert page.execute_script("return Object.keys(sessionStorage)") == ["livery.studio.token"]
    assert find(page, ACCENT).find_element(By.CSS_SELECTOR, ".picker").is_enabled()
    find(page, "#lock").click()
    wait(page, lambda d: text_of(d, "#mode") == "read-only")
    assert page.execute_script("return Object.keys(sessionStorage).length") == 0

    status, headers, _ = daemon.request("GET", "/v1/spec", headers={"Origin": "http://evil.example"})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers
    _, headers, _ = daemon.request("GET", "/studio/")
    assert "default-src 'self'" in headers["Content-Security-Policy"]


def test_markup_in_a_spec_is_shown_as_text(page, daemon):
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
    version = daemon.etag()
    tagline = "<script>window.pwned = 1</script><b>bold</b>"
    family = "<img src=x onerror=window.pwned=2>"
    daemon.path("notes.yaml").write_text(
        "variables:\n  notes:\n    tagline: \"%s\"\n"
        "specs:\n  notes.label:\n    - { type: Font, name: \"%s\", size: 12 }\n" % (tagline.replace('"', '\\"'), family))
    daemon.wait_for_new_bundle(version)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '.identifier[data-identifier="notes.label"]'))
    find(page, '.identifier[data-identifier="notes.label"]').click()
    wait(page, lambda d: family in find(d, "#identifier-detail").text)
    row = find(page, '.variable[data-path="notes.tagline"]')
    assert row.find_element(By.CSS_SELECTOR, "input").get_attribute("value") == tagline
    assert page.execute_script("return document.querySelectorAll('main script, main b, main img').length") == 0
    assert page.execute_script("return window.pwned === undefined")


def test_a_trait_field_is_edited_with_a_weight_menu(needs_dry_run, page, daemon):
    unlock(page)
    find(page, '.identifier[data-identifier="card.title"]').click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#identifier-detail dl[data-place="card.yaml:25:7"] select.weight'))
    menu = find(page, '#identifier-detail dl[data-place="card.yaml:25:7"] select.weight')
    assert menu.get_attribute("value") == "semibold"
    set_value(page, menu, "black", "change")
    wait(page, lambda d: 'weight: "black"' in find(d, "#editor").get_attribute("value"))
    wait(page, lambda d: file_state(d) == "valid")
    wait(page, lambda d: font_weight(d, "Unsaved", "card.title") == "900")
    assert font_weight(page, "Live", "card.title") == "600"
    find(page, "#save").click()
    wait(page, lambda d: file_state(d) == "saved")
    assert 'weight: "black"' in daemon.path("card.yaml").read_text()
    wait(page, lambda d: font_weight(d, "Live", "card.title") == "900")


def test_livery_serve_no_studio_turns_the_page_off(specs):
    """`--no-studio`; the default on a non-loopback host is checked in StudioRouteTests (tests
    bind only 127.0.0.1)."""
    for arguments, served in ((["--no-studio"], False), (["--studio"], True)):
        daemon = Daemon(specs, arguments)
        try:
            assert daemon.request("GET", "/studio/")[0] == (200 if served else 404), arguments
            assert daemon.request("GET", "/v1/resolved")[0] == 200
        finally:
            daemon.stop()


def test_a_key_without_the_push_scope_sees_the_write_controls_disabled(browser, specs, request):
    daemon = Daemon(specs, ["--state-dir", str(specs.parent / "state")])
    try:
        status, _, body = daemon.request(
            "POST", "/v1/keys",
            json.dumps({"name": "viewer", "scopes": ["read"], "environments": ["*"]}).encode(),
            {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        assert status == 201, body
        key = json.loads(body)["key"]
        for page in open_studio(browser, daemon, request):
            wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ACCENT))
            find(page, "#token").send_keys(key)
            find(page, "#unlock").click()
            # The page holds a key the daemon knows, which may only read: still read-only.
            wait(page, lambda d: find(d, "#mode").get_attribute("title") == "key viewer")
            assert text_of(page, "#mode") == "read-only"
            assert find(page, "#lock").is_displayed()
            assert find(page, "#editor").get_attribute("readonly") is not None
            assert not find(page, "#save").is_enabled()
            assert not find(page, ACCENT).find_element(By.CSS_SELECTOR, ".picker").is_enabled()
            status, _, body = daemon.request("GET", "/v1/keys/self", headers={"Authorization": f"Bearer {key}"})
            assert status == 200 and json.loads(body) == {"name": "viewer", "scopes": ["read"], "environments": ["*"]}
    finally:
        daemon.stop()
