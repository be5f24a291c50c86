"""A designer's push restyles a web page: Tokens Studio for Figma's storage request
(`PUT /v1/tokens-studio`, the shape its Generic Versioned Storage sends) becomes token files,
their tokens the spec's variables, and a page on another origin following `/v1/css` computes
what a Swift StyledBox gets from the same folder, in each of the pushed themes."""

import json
import pathlib
import shutil
import tempfile

from selenium.webdriver.support.ui import WebDriverWait

from conftest import TOKEN, free_port
from web_page import StaticServer, WebDaemon, compare, fresh_folder, measure, oracle, write_page

CARD = """specs:
  card:
    - { type: BackgroundColor, color: "@color.background" }
    - { type: TextColor, color: "@color.text" }
    - { type: Padding, insets: "@space.pad" }
"""


def push(background):
    """What the plugin's write() sends: version, updatedAt, every set, the themes."""
    return {
        "version": "2.10.0", "updatedAt": "2026-11-26T20:00:00.000Z",
        "values": {
            "core": {
                "palette": {"$type": "color", "white": {"$value": "#ffffff"}, "ink": {"$value": "#1c1c1e"},
                            "brand": {"$value": background}},
                "space": {"$type": "spacing", "pad": {"$value": "12px"}},
            },
            "light": {"color": {"$type": "color", "background": {"$value": "{palette.brand}"},
                                "text": {"$value": "{palette.ink}"}}},
            "dark": {"color": {"$type": "color", "background": {"$value": "{palette.ink}"},
                               "text": {"$value": "{palette.white}"}}},
        },
        "$themes": [
            {"id": "t1", "name": "light", "selectedTokenSets": {"core": "source", "light": "enabled", "dark": "disabled"}},
            {"id": "t2", "name": "dark", "selectedTokenSets": {"core": "source", "light": "disabled", "dark": "enabled"}},
        ],
    }


def wait(driver, condition, timeout=10, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


def studio_push(daemon, background):
    """The plugin's push, from its frame's origin (`null`), with the storage's custom header."""
    status, headers, body = daemon.request(
        "PUT", "/v1/tokens-studio", json.dumps(push(background)).encode(),
        {"Origin": "null", "Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    assert status == 200, (status, body)
    assert headers.get("Access-Control-Allow-Origin") == "*"


def background(driver):
    return driver.execute_script(
        "return getComputedStyle(document.querySelector('[data-livery=\"card\"]')).backgroundColor")


def test_a_tokens_studio_push_restyles_a_page_following_the_daemon(browser):
    source = pathlib.Path(tempfile.mkdtemp(prefix="livery-tokens-"))
    (source / "box.yaml").write_text("specs:\n  box: []\n")
    root = fresh_folder(source)
    server = StaticServer(root / "site")
    daemon = WebDaemon(root / "Specs", free_port(), server.origin)
    try:
        write_page(root / "site", ["card"])
        browser.get(f"{server.origin}/index.html?daemon={daemon.base}")
        wait(browser, lambda d: d.execute_script("return window.livery?.version ?? null"), message="no stylesheet")
        browser.execute_script("window.livery.setTheme('light')")

        studio_push(daemon, "#ff0000")
        status, _, body = daemon.request(
            "PUT", "/v1/specs/card.yaml", CARD.encode(), {"Authorization": f"Bearer {TOKEN}"})
        assert status == 201, body
        wait(browser, lambda d: background(d) == "rgb(255, 0, 0)", message="the pushed brand colour is not shown")

        studio_push(daemon, "#30d158")
        wait(browser, lambda d: background(d) == "rgb(48, 209, 88)", message="the second push did not restyle")
        looks = oracle(root / "Specs")["looks"]
        for theme in ["light", "dark"]:
            browser.execute_script("window.livery.setTheme(arguments[0])", theme)
            compare(measure(browser)["card"], looks[theme]["card"], f"card under {theme}")
        assert looks["light"]["card"]["backgroundColor"][:3] == [48, 209, 88]
        assert looks["dark"]["card"]["backgroundColor"][:3] == [0x1C, 0x1C, 0x1E]
    finally:
        daemon.stop()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(source, ignore_errors=True)
