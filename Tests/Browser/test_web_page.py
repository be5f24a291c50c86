"""A plain web page on another origin, styled live by `livery serve` through /v1/livery.js and
/v1/css, in a real headless Chromium: what it computes must be what a Swift StyledBox gets."""

import hashlib
import json
import shutil
import time
import urllib.request

import pytest
import tinycss2
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, ROOT, TOKEN, free_port
from web_page import StaticServer, WebDaemon, compare, fresh_folder, measure, oracle, rgba, write_page


def wait(driver, condition, timeout=10, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


@pytest.fixture
def site():
    """A fresh copy of web_specs (root/Specs) and a static server on root/site: another origin."""
    root = fresh_folder()
    server = StaticServer(root / "site")
    yield root, server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def web(browser, site, request):
    """The daemon (allowing the site's origin) and the test page open in the browser, styled;
    `@pytest.mark.page_query("mode=events")` adds to the page's query."""
    root, server = site
    port = free_port()
    state = {"daemon": WebDaemon(root / "Specs", port, server.origin), "root": root, "port": port, "server": server}
    try:
        write_page(root / "site", oracle(root / "Specs")["looks"][""].keys())
        browser.get("about:blank")
        browser.get_log("browser")
        marker = request.node.get_closest_marker("page_query")
        extra = "&" + marker.args[0] if marker else ""
        browser.get(f"{server.origin}/index.html?daemon={state['daemon'].base}{extra}")
        wait(browser, lambda d: d.execute_script("return window.livery?.version ?? null"), message="no stylesheet")
        yield browser, state
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / f"{request.node.name}.png"))
    finally:
        # Also when the page never got its stylesheet: no daemon outlives its test.
        state["daemon"].stop()


def set_theme(driver, theme):
    driver.execute_script("window.livery.setTheme(arguments[0])", theme)


def test_every_built_in_trait_in_every_theme_is_what_a_swift_target_gets(web):
    driver, state = web
    expected = oracle(state["root"] / "Specs")
    assert expected["themes"] == ["dark", "contrast"]
    for theme in [None] + expected["themes"]:
        set_theme(driver, theme)
        attribute = driver.execute_script("return document.documentElement.getAttribute('data-livery-theme')")
        assert attribute == theme
        computed = measure(driver)
        look = expected["looks"][theme or ""]
        assert set(computed) == set(look)
        for identifier, box in look.items():
            compare(computed[identifier], box, f"{identifier} under {theme}")


def test_the_page_is_on_another_origin_and_the_daemon_counts_it_in_its_fleet(web):
    driver, state = web
    daemon = state["daemon"]
    assert not state["server"].origin.endswith(f":{state['port']}")
    version = driver.execute_script("return window.livery.version")

    def counted():
        fleet = json.loads(daemon.request("GET", "/v1/clients")[2])
        # The page is the daemon's only client: it has applied the current version.
        return fleet["current"] == version and fleet["clients"] == 1 and fleet["converged"] == 1

    wait(driver, lambda _: counted(), message="the daemon did not count the page")


def test_a_push_restyles_the_page(web):
    driver, state = web
    daemon = state["daemon"]
    before = driver.execute_script("return window.livery.version")
    spec = (state["root"] / "Specs" / "look.yaml").read_text().replace('accent: "#0A84FF"', 'accent: "#30D158"')
    daemon.publish({"look.yaml": spec}, "green accent")
    wait(driver, lambda d: d.execute_script("return window.livery.version") != before, message="no new version")
    expected = oracle(state["root"] / "Specs")["looks"][""]
    computed = measure(driver)
    for identifier, box in expected.items():
        compare(computed[identifier], box, identifier)
    assert expected["box.border"]["borderColor"][:3] == [0x30, 0xD1, 0x58]


def follows_a_restarted_daemon(driver, state, version):
    """Changes the specs while the daemon is stopped, starts it again on the same port, and
    waits for the page (which left `version` applied) to show the change."""
    look = state["root"] / "Specs" / "look.yaml"
    look.write_text(look.read_text().replace("radius: 7.5", "radius: 11"))
    state["daemon"] = WebDaemon(state["root"] / "Specs", state["port"], state["server"].origin)
    wait(driver, lambda d: d.execute_script("return window.livery.version") != version, timeout=40,
         message="the page did not follow the restarted daemon")
    assert measure(driver)["box.radius"]["radius"] == "11px"


RESOURCES = "return performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)"


@pytest.mark.page_query("mode=events")
def test_a_page_on_the_event_stream_is_restyled_by_a_push_and_follows_a_restarted_daemon(web):
    driver, state = web
    daemon, root = state["daemon"], state["root"]
    before = driver.execute_script("return window.livery.version")
    spec = (root / "Specs" / "look.yaml").read_text().replace('accent: "#0A84FF"', 'accent: "#30D158"')
    daemon.publish({"look.yaml": spec}, "green accent")
    wait(driver, lambda d: d.execute_script("return window.livery.version") != before, message="no new version")
    expected = oracle(root / "Specs")["looks"][""]
    computed = measure(driver)
    for identifier, box in expected.items():
        compare(computed[identifier], box, identifier)
    assert "/v1/version" not in driver.execute_script(RESOURCES)

    # The stream ends with the daemon (its entry appears once it has); the page keeps its look
    # and connects to the next one.
    version = driver.execute_script("return window.livery.version")
    looks = measure(driver)
    daemon.stop()
    wait(driver, lambda d: "/v1/events" in d.execute_script(RESOURCES), message="no event stream ended")
    assert "/v1/version" not in driver.execute_script(RESOURCES)
    assert measure(driver) == looks
    follows_a_restarted_daemon(driver, state, version)


def test_a_refused_push_leaves_the_page_as_it_was(web):
    driver, state = web
    daemon = state["daemon"]
    before = measure(driver)
    version = driver.execute_script("return window.livery.version")
    bad = json.dumps({"files": {"look.yaml": "specs:\n  box.text: [{ type: TextColor, color: '#GG0000' }]\n"}})
    status, _, _ = daemon.request(
        "POST", "/v1/specs", bad.encode(), {"Authorization": "Bearer studio-browser-test-token-0123456789",
                                            "Content-Type": "application/json"})
    assert status == 422
    time.sleep(2.5)  # longer than the page's signal wait: it has asked again since
    assert driver.execute_script("return window.livery.version") == version
    assert measure(driver) == before


def test_the_page_keeps_its_look_while_the_daemon_is_away_and_follows_it_again(web):
    driver, state = web
    daemon = state["daemon"]
    before = measure(driver)
    version = driver.execute_script("return window.livery.version")
    daemon.stop()
    errors = driver.execute_script("return window.errors")
    wait(driver, lambda d: d.execute_script("return window.errors") > errors, message="the page did not notice")
    assert measure(driver) == before
    follows_a_restarted_daemon(driver, state, version)


HOSTILE = [
    'x"; } body { display: none } .y {',
    "a\nb\r\nc\fd",
    "back\\slash\\",
    "nul\u0000byte",
    "</style><script>alert(1)</script>",
    "*/ body { display: none } /*",
    "\u00e9\u00e8 \u2603 \U0001F600 \u202e",
    " @import url(http://evil.example/x.css);",
    "}",
    "--",
    "0",
]


def hostile_spec():
    """Every hostile value as an identifier, a font name, a Set label and a variable."""
    specs = {}
    for index, value in enumerate(HOSTILE):
        specs[value] = [{"type": "Opacity", "opacity": 0.5}]
        specs[f"hostile.{index}"] = [
            {"type": "Font", "name": value},
            {"type": "Set", "values": {"label": value}},
        ]
    variables = {f"v{index} {value}": value for index, value in enumerate(HOSTILE)}
    return {"variables": variables, "specs": specs}


def test_hostile_values_stay_inert_in_a_css_parser_and_in_the_browser(web):
    driver, state = web
    daemon = state["daemon"]
    before = driver.execute_script("return window.livery.version")
    spec = hostile_spec()
    daemon.publish({"look.yaml": None, "hostile.json": json.dumps(spec)}, "hostile values")
    wait(driver, lambda d: d.execute_script("return window.livery.version") != before, message="no new version")

    with urllib.request.urlopen(daemon.base + "/v1/css", timeout=10) as response:
        text = response.read().decode()
    rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
    assert [r for r in rules if r.type != "qualified-rule"] == []
    identifiers = list(spec["specs"])
    assert len(rules) == 1 + len(identifiers)  # :root and one rule per identifier
    for rule, identifier in zip(rules[1:], identifiers):
        prelude = [t for t in rule.prelude if t.type != "whitespace"]
        assert len(prelude) == 1 and prelude[0].type == "[] block", tinycss2.serialize(rule.prelude)
        inner = [t for t in prelude[0].content if t.type != "whitespace"]
        assert [t.type for t in inner] == ["ident", "literal", "string"]
        assert (inner[0].value, inner[1].value, inner[2].value) == ("data-livery", "~=", identifier.replace("\0", "\ufffd"))
        declarations = [d for d in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)]
        assert all(d.type == "declaration" for d in declarations), declarations
    root = tinycss2.parse_declaration_list(rules[0].content, skip_comments=True, skip_whitespace=True)
    assert [d.lower_name for d in root] == [f"--v{index} {value}".replace("\0", "\ufffd").lower()
                                            for index, value in enumerate(HOSTILE)]
    for declaration, value in zip(root, HOSTILE):
        tokens = [t for t in declaration.value if t.type != "whitespace"]
        assert [t.type for t in tokens] == ["string"] and tokens[0].value == value.replace("\0", "\ufffd")

    # In the browser: the same number of rules, the body shown, each value one string.
    assert driver.execute_script(
        "return document.adoptedStyleSheets.at(-1).cssRules.length") == 1 + len(identifiers)
    assert driver.execute_script("return getComputedStyle(document.body).display") == "block"
    for index, value in enumerate(HOSTILE):
        driver.execute_script(
            "const n = document.createElement('div'); n.dataset.livery = arguments[0]; n.id = 'h' + arguments[1];"
            "document.body.append(n);", f"hostile.{index}", index)
        label = driver.execute_script(
            "return getComputedStyle(document.getElementById('h' + arguments[0])).getPropertyValue('--label')", index)
        tokens = [t for t in tinycss2.parse_component_value_list(label) if t.type != "whitespace"]
        assert [t.type for t in tokens] == ["string"] and tokens[0].value == value.replace("\0", "\ufffd"), label


def test_the_example_page_follows_the_daemon_and_switches_to_dark(browser, request):
    """Examples/WebPage as shipped, from a plain static server, themed by a daemon on the
    repository's example specs; its screenshot in dark is the README's picture."""
    root = fresh_folder(ROOT / "Specs")
    server = StaticServer(ROOT / "Examples" / "WebPage")
    daemon = WebDaemon(root / "Specs", free_port(), server.origin)
    try:
        browser.get(f"{server.origin}/index.html?daemon={daemon.base}&theme=dark")
        card = "return getComputedStyle(document.querySelector('[data-livery=\"card\"]')).backgroundColor"
        expected = oracle(root / "Specs")["looks"]
        surface = "rgb(%d, %d, %d)" % tuple(expected["dark"]["card"]["backgroundColor"][:3])
        wait(browser, lambda d: d.execute_script(card) == surface, message="the card is not dark")
        ARTIFACTS.mkdir(exist_ok=True)
        browser.set_window_size(900, 600)
        browser.save_screenshot(str(ARTIFACTS / "web-page-dark.png"))
        browser.execute_script("document.querySelector('[data-theme=\"\"]').click()")
        light = "rgb(%d, %d, %d)" % tuple(expected[""]["card"]["backgroundColor"][:3])
        wait(browser, lambda d: d.execute_script(card) == light, message="the card did not go back to light")
    finally:
        browser.set_window_size(1480, 1500)
        daemon.stop()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


def cohort_bucket(rollout_id, instance):
    """The cohort rule, written here from its definition (README, "Staged rollouts")."""
    digest = hashlib.sha256(f"{rollout_id}:{instance}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 10_000


def test_a_page_follows_a_rollout_by_its_instance_and_a_problem_it_reports_aborts_it(web):
    driver, state = web
    daemon = state["daemon"]
    stable = daemon.etag()
    spec = (state["root"] / "Specs" / "look.yaml").read_text().replace('accent: "#0A84FF"', 'accent: "#30D158"')
    body = json.dumps({"files": {"look.yaml": spec}, "message": "green, half first", "rollout": "50%"}).encode()
    status, _, reply = daemon.request(
        "POST", "/v1/specs", body, {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    assert status == 200, reply
    rollout = json.loads(reply)
    assert rollout["state"] == "running" and rollout["stable"] == stable
    inside = next(f"page-{n}" for n in range(100) if cohort_bucket(rollout["id"], f"page-{n}") < 5000)
    outside = next(f"page-{n}" for n in range(100) if cohort_bucket(rollout["id"], f"page-{n}") >= 5000)

    def open_page(instance, wait_seconds=2):
        driver.get(f"{state['server'].origin}/index.html?daemon={daemon.base}&instance={instance}&wait={wait_seconds}")
        wait(driver, lambda d: d.execute_script("return window.livery?.version ?? null"), message="no stylesheet")

    def accent_border():
        return rgba(measure(driver)["box.border"]["borderColor"])[:3]

    open_page(outside)
    assert driver.execute_script("return window.livery.version") == stable
    assert accent_border() == [0x0A, 0x84, 0xFF]
    assert driver.execute_script("return window.livery.reportProblem('not mine')") is True
    time.sleep(3)  # sent at once (POST /v1/reports), and with the next signal round (wait 2 s)
    now = json.loads(daemon.request("GET", "/v1/rollout")[2])
    assert now["state"] == "running", "a problem reported against the stable version aborts nothing"

    # Rounds of 300 s: within the 15 s below only the report sent at once (POST /v1/reports)
    # reaches the daemon, not the header of the page's next round.
    open_page(inside, wait_seconds=300)
    wait(driver, lambda d: d.execute_script("return window.livery.version") == rollout["candidate"],
         message="the cohort's page did not apply the candidate")
    assert accent_border() == [0x30, 0xD1, 0x58]

    assert driver.execute_script("return window.livery.reportProblem('the green is unreadable here')") is True
    wait(driver, lambda d: d.execute_script("return window.livery.version") == stable, timeout=15,
         message="the page did not return to the stable version after its problem report")
    assert accent_border() == [0x0A, 0x84, 0xFF]
    aborted = json.loads(daemon.request("GET", "/v1/rollout")[2])
    assert aborted["state"] == "aborted" and aborted["cohort"]["problems"] >= 1, aborted
