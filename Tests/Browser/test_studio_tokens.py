"""Design tokens in Livery Studio: a tokens file's variables with their descriptions, and the
palette editing a token's `$value` in place, in the format's own shape."""

import json

from selenium.webdriver.common.by import By

from test_studio import find, set_value, text_of, unlock, wait, file_state

BRAND = '.variable[data-path="brand.primary"]'

TOKENS = """{
  "brand": {
    "$type": "color",
    "primary": {
      "$description": "Buttons and links",
      "$value": { "colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc" }
    },
    "old": { "$value": "{brand.primary}", "$deprecated": "use brand.primary" }
  }
}
"""


def test_a_token_shows_with_its_description_and_its_colour_is_edited_in_place(needs_dry_run, page, daemon):
    daemon.path("brand.tokens.json").write_text(TOKENS)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, BRAND), timeout=10)
    row = find(page, BRAND)
    assert row.find_element(By.CSS_SELECTOR, ".description").text == "Buttons and links"
    assert row.find_element(By.CSS_SELECTOR, ".place").text == "brand.tokens.json:6:17"
    assert "deprecated: use brand.primary" in find(page, '.variable[data-path="brand.old"]').text

    unlock(page)
    set_value(page, find(page, BRAND).find_element(By.CSS_SELECTOR, ".picker"), "#ff0000")
    expected = '"$value": { "colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000" }'
    wait(page, lambda d: expected in find(d, "#editor").get_attribute("value"))
    wait(page, lambda d: file_state(d) == "valid", message="the dry run did not accept the edit")
    find(page, "#save").click()
    wait(page, lambda d: file_state(d) == "saved")
    saved = json.loads(daemon.path("brand.tokens.json").read_text())
    assert saved["brand"]["primary"]["$value"] == {"colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000"}
    assert saved["brand"]["primary"]["$description"] == "Buttons and links"
    wait(page, lambda d: text_of(d, BRAND + " .value") == "#FF0000", timeout=10)
