#!/usr/bin/env python3
"""Regenerates the seeds of FuzzTokens, FuzzResolver, FuzzTokensStudio and FuzzStyleSheet from the
JSON documents in the token tests' string literals (those without interpolation), a Tokens
Studio push as the plugin sends it, and the example specs. Run it when those tests grow; the
generated files are committed, so `scripts/fuzz` does not need it.

  FuzzTokens/        a tokens document as a.tokens.json; pairs as a and b; with a spec c.yaml
  FuzzResolver/      a resolver document with its file references renamed to a and b, and those
  FuzzTokensStudio/  Tokens Studio storage bodies
  FuzzStyleSheet/    the FuzzSpec seeds that are good specs, and specs with hostile values
"""
import json
import pathlib
import re
import shutil

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TESTS = [*sorted((ROOT / "Tests/LiveryTests").glob("*Token*.swift")),
         *sorted((ROOT / "Tests/LiveryServerTests/TokensStudio").glob("*.swift"))]


def literals(text):
    """The string literals of a Swift file that hold no interpolation, as their values."""
    for match in re.finditer(r'(#+)"(?!"")(.*?)"\1', text):
        if "\\" + match.group(1) + "(" not in match.group(2):
            yield match.group(2)
    for match in re.finditer(r'"""\n(.*?)\n([ ]*)"""', text, re.S):
        body, indent = match.group(1), match.group(2)
        if "\\(" in body:
            continue
        body = "\n".join(line[len(indent):] for line in body.split("\n")).replace("\\\n", "")
        yield body.replace('\\"', '"')


def documents():
    seen = set()
    for path in TESTS:
        for text in literals(path.read_text()):
            try:
                document = json.loads(text)
            except ValueError:
                continue
            if isinstance(document, dict) and text not in seen:
                seen.add(text)
                yield text, document


def kind(document):
    if "resolutionOrder" in document or "modifiers" in document or "sets" in document:
        return "resolver"
    if "values" in document and ({"version", "updatedAt", "$themes"} & document.keys()):
        return "studio"
    return "tokens"


def renamed_references(text):
    """The resolver's file references renamed to a.tokens.json and b.tokens.json, in turn."""
    names = {}
    def rename(match):
        names.setdefault(match.group(1), "ab"[len(names) % 2] + ".tokens.json")
        return '"$ref": "' + names[match.group(1)] + '"'
    return re.sub(r'"\$ref"\s*:\s*"([^"#]+)"', rename, text)


def write(folder, name, data):
    (HERE / folder).mkdir(exist_ok=True)
    (HERE / folder / name).write_bytes(data.encode() if isinstance(data, str) else data)


for folder in ["FuzzTokens", "FuzzResolver", "FuzzTokensStudio", "FuzzStyleSheet"]:
    shutil.rmtree(HERE / folder, ignore_errors=True)

found = {"tokens": [], "resolver": [], "studio": []}
for text, document in documents():
    found[kind(document)].append(text)

card = "specs:\n  card:\n    - { type: BackgroundColor, color: \"@color.background\" }\n" \
       "    - { type: TextColor, color: \"@color.text\" }\n    - { type: Padding, insets: \"@space.pad\" }\n"
tokens = found["tokens"]
for index, text in enumerate(tokens):
    write("FuzzTokens", f"test-{index:03}", text)
    if index + 1 < len(tokens):
        write("FuzzTokens", f"pair-{index:03}", text + "\0" + tokens[index + 1])
light = '{ "color": { "$type": "color", "background": { "$value": "{palette.white}" }, "text": { "$value": "#1c1c1e" } } }'
palette = '{ "palette": { "$type": "color", "white": { "$value": { "colorSpace": "srgb", "components": [1, 1, 1] } } },' \
          ' "space": { "$type": "dimension", "pad": { "$value": { "value": 8, "unit": "px" } } } }'
write("FuzzTokens", "with-spec", palette + "\0" + light + "\0" + card)

for index, text in enumerate(found["resolver"]):
    write("FuzzResolver", f"test-{index:03}", renamed_references(text) + "\0" + palette + "\0" + light)
write("FuzzResolver", "two-modifiers", json.dumps({
    "version": "2025.10",
    "sets": {"base": {"sources": [{"$ref": "a.tokens.json"}]}},
    "modifiers": {"theme": {"contexts": {"light": [{"$ref": "b.tokens.json"}],
                                         "dark": [{"color": {"$type": "color", "background": {"$value": "#000000"}}}]},
                            "default": "light"}},
    "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"},
                        {"type": "modifier", "name": "density", "contexts": {"normal": [], "compact": []}}],
}) + "\0" + palette + "\0" + light)

push = {
    "version": "2.10.0", "updatedAt": "2026-11-26T20:00:00.000Z",
    "values": {
        "core": {"palette": {"$type": "color", "white": {"$value": "#ffffff"}, "ink": {"$value": "#1c1c1e"}},
                 "space": {"$type": "spacing", "pad": {"$value": "12px"}}, "radius": {"$type": "borderRadius", "$value": "4.5rem"}},
        "light": {"color": {"$type": "color", "background": {"$value": "{palette.white}"}, "text": {"$value": "{palette.ink}"}}},
        "dark": {"color": {"$type": "color", "background": {"$value": "{palette.ink}"}, "text": {"$value": "{palette.white}"}}},
    },
    "$themes": [
        {"id": "t1", "name": "light", "selectedTokenSets": {"core": "source", "light": "enabled", "dark": "disabled"}},
        {"id": "t2", "name": "dark", "group": "mode", "selectedTokenSets": {"core": "source", "dark": "enabled"}},
    ],
}
write("FuzzTokensStudio", "push", json.dumps(push))
write("FuzzTokensStudio", "create", json.dumps({"version": "2.10.0", "updatedAt": "2026-11-26T20:00:00.000Z",
                                                "values": {"options": {}}, "$themes": []}))
# A set name whose path SpecPath normalises (`tokens//ptions` is `tokens/ptions`).
write("FuzzTokensStudio", "set-name-normalised", '{"version": "Z", "values": {"/ptions": {}}, "$themes": []}')
write("FuzzTokensStudio", "legacy", json.dumps({"values": {"core": {"white": {"value": "#ffffff", "type": "color"}}}}))
for index, text in enumerate(found["studio"]):
    write("FuzzTokensStudio", f"test-{index:03}", text)

(HERE / "FuzzStyleSheet").mkdir()
for seed in sorted((HERE / "FuzzSpec").glob("spec-*")) + sorted((HERE / "FuzzSpec").glob("json-*")):
    shutil.copy(seed, HERE / "FuzzStyleSheet" / seed.name)
# Values that would end a declaration, a rule, a comment or a <style> element if written raw.
write("FuzzStyleSheet", "hostile-values", """variables:
  "x;}</style><script>": "a\\"b\\\\c</style>*/{"
  "1a": "#0A84FF"
  gaps: []
themes:
  "dark\\"]{}": { "1a": "#000000" }
specs:
  "card\\"] { color: red } [x=\\"":
    - { type: Font, name: "Inter\\";}</style>", size: 12 }
    - { type: Set, values: { "--x;}": "@x;}</style><script>", "a/*b": "*/" } }
""")
write("FuzzStyleSheet", "note-in-comment", """variables:
  a: "@b</style>"
specs:
  card: [{ type: Opacity, opacity: 0.5 }]
""")
for folder in ["FuzzTokens", "FuzzResolver", "FuzzTokensStudio", "FuzzStyleSheet"]:
    print(folder, len(list((HERE / folder).iterdir())))
