#!/usr/bin/env bash
# Regenerates the seed corpus in this folder from Specs/*.yaml, the JSON examples of the README
# and the bad-spec table of Tests/LiveryTests/BadSpecTests.swift. Run it when that table grows;
# the generated files are committed, so `scripts/fuzz` does not need it.
#
#   FuzzSpec/        one spec per file (a folder case contributes each of its files)
#   FuzzSpecFolder/  the files of a case joined by NUL bytes, in the order a, b, sub/c
#   FuzzProvider/    one spec per file, plus the table's apply-time cases
set -euo pipefail
cd "$(dirname "$0")"
root=../..
table=$root/Tests/LiveryTests/BadSpecTests.swift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The two tables, verbatim, compiled with a stand-in for the test's Case type so that Swift
# itself reads the string literals.
{
    cat <<'SWIFT'
import Foundation
struct Case {
    var name: String
    var files: [String: String]
    init(_ name: String, _ files: [String: String], _ expected: String) { self.name = name; self.files = files }
    init(_ name: String, yaml: String, _ expected: String) { self.init(name, ["card.yaml": yaml], expected) }
}
SWIFT
    sed -n '/static let cases: \[Case\] = \[/,/^    \]/p' "$table" | sed 's/static let/let/'
    sed -n '/static let applyCases/,/^    \]/p' "$table" | sed 's/static let/let/'
    cat <<'SWIFT'
let out = CommandLine.arguments[1]
func write(_ folder: String, _ name: String, _ text: String) {
    let url = URL(fileURLWithPath: out).appendingPathComponent(folder).appendingPathComponent(name)
    try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try! Data(text.utf8).write(to: url)
}
func slug(_ name: String) -> String {
    String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
}
for bad in cases {
    let paths = bad.files.keys.sorted()
    for path in paths {
        let suffix = paths.count > 1 ? "-" + path : ""
        write("FuzzSpec", "bad-" + slug(bad.name) + suffix, bad.files[path]!)
        write("FuzzProvider", "bad-" + slug(bad.name) + suffix, bad.files[path]!)
    }
    write("FuzzSpecFolder", "bad-" + slug(bad.name), paths.map { bad.files[$0]! }.joined(separator: "\0"))
}
for (index, apply) in applyCases.enumerated() {
    write("FuzzProvider", "apply-\(index)", apply.yaml)
}
SWIFT
} > "$work/seeds.swift"
swiftc -O -o "$work/seeds" "$work/seeds.swift"
rm -rf FuzzSpec FuzzSpecFolder FuzzProvider
"$work/seeds" "$PWD"

# The example specs: each alone, and the folder with card.yaml as `a` including palette as `b`.
for spec in "$root"/Specs/*.yaml; do
    name=$(basename "$spec" .yaml)
    cp "$spec" "FuzzSpec/spec-$name.yaml"
    cp "$spec" "FuzzProvider/spec-$name.yaml"
done
{
    sed 's/include: \[palette.yaml\]/include: [b.yaml]/' "$root/Specs/card.yaml"
    printf '\0'
    cat "$root/Specs/palette.yaml"
} > FuzzSpecFolder/spec-card-palette
{
    cat "$root/Specs/palette.yaml"
    printf '\0'
    sed 's/include: \[palette.yaml\]//' "$root/Specs/card.yaml"
} > FuzzSpecFolder/spec-palette-card

# Good JSON specs, as in the README and the original Traits format.
original='{"specs": {"card": [{"type": "CornerRadius", "radius": 88}]}}'
themed='{"variables": {"colors": {"accent": "#0A84FF", "text": "#1C1C1E"}}, "themes": {"dark": {"colors": {"accent": "#64D2FF"}}}, "specs": {"card": [{"type": "BackgroundColor", "color": "@colors.accent"}, {"type": "DropShadow", "color": "~alpha(@colors.text, 0.3)", "offset": {"width": 0, "height": 2}, "opacity": 0.5}], "card.title": [{"type": "Inherit", "traits": ["card"]}, {"type": "Font", "name": "Inter", "size": 18, "color": "~mix(@colors.text, #FFFFFF, 0.5)"}, {"type": "Set", "values": {"retries": 4, "label": "x"}}, {"type": "Opacity", "opacity": 0.5}]}}'
for target in FuzzSpec FuzzProvider; do
    printf '%s' "$original" > "$target/json-original"
    printf '%s' "$themed" > "$target/json-themed"
done
printf '%s\0%s' '{"include": ["b.yaml"], "specs": {"card": [{"type": "BackgroundColor", "color": "@colors.accent"}]}}' \
    "$(cat "$root/Specs/palette.yaml")" > FuzzSpecFolder/json-include
printf '%s\0%s\0%s' 'include: [sub/c.json]
specs: { card: [{ type: Inherit, traits: [base] }] }' 'themes: { dark: { accent: "#000000" } }
specs: { other: [] }' "$themed" > FuzzSpecFolder/three-files
# Shapes whose cost grows faster than their text: a reference chain, Inherit fan-out, nested
# aliases. Small here; the fuzzer can grow them (see the findings in ../README.md).
{
    echo "variables:"
    for i in $(seq 0 49); do echo "  v$i: \"@v$((i + 1))\""; done
    echo '  v50: "#FFFFFF"'
    echo 'specs:'
    echo '  card: [{ type: BackgroundColor, color: "@v0" }]'
} > FuzzSpec/shape-reference-chain
{
    echo "specs:"
    echo "  s0: [{ type: CornerRadius, radius: 1 }]"
    for i in $(seq 0 7); do echo "  s$((i + 1)): [{ type: Inherit, traits: [s$i, s$i] }]"; done
} > FuzzSpec/shape-inherit-fan-out
cat > FuzzSpec/shape-aliases <<'YAML'
variables:
  a0: &a0 ["#000", "#FFF", "#123"]
  a1: &a1 [*a0, *a0, *a0]
  a2: &a2 [*a1, *a1, *a1]
  base: &base { width: 1, height: 2 }
specs:
  card: [{ type: DropShadow, offset: *base }]
YAML
# Repeated keys of every kind (plain, quoted, explicit, nested explicit, empty): the reader must
# name the first problem in the text, the same one on every read.
cat > FuzzSpec/shape-repeated-keys <<'YAML'
specs:
  card: []
  'card': []
? ? crpegs:s:
? ? crpegs:s:
? 
: a
? 
: b
YAML
for shape in FuzzSpec/shape-*; do
    cp "$shape" FuzzProvider/
    cp "$shape" FuzzSpecFolder/
done
ls FuzzSpec FuzzSpecFolder FuzzProvider | grep -c .
