#!/usr/bin/env python3
"""Writes openapi.yaml's environment paths from the spec-set paths they repeat.

Every route of a spec set is also served at /v1/environments/{environment}/… (and OFREP's at
/v1/environments/{environment}/ofrep/…). OpenAPI 3.0 ignores what stands beside a path item's
`$ref`, so each environment path is a copy of its spec-set path with the `environment` parameter,
a 404 for an environment the daemon does not have, and its own operation ids (…InEnvironment).
The copies sit between two marker lines and are made only here:

    python3 Tests/OpenAPI/environment_paths.py          rewrite the document
    python3 Tests/OpenAPI/environment_paths.py --check  fail when the document's copies are stale
"""
import pathlib
import re
import sys

DOCUMENT = pathlib.Path(__file__).resolve().parents[2] / "Sources/LiveryServer/Resources/openapi.yaml"
BEGIN = "  # environment paths: written by Tests/OpenAPI/environment_paths.py from the paths above; do not edit\n"
END = "  # end of the environment paths\n"
# The spec-set routes served per environment, as the daemon's route table has them.
ROUTES = [
    "/v1/spec", "/v1/spec/{etag}", "/v1/version", "/v1/css", "/v1/css/{etag}", "/v1/events", "/v1/specs",
    "/v1/specs/{path}", "/v1/promotions", "/v1/promotions/preview", "/v1/changes", "/v1/changes/{id}",
    "/v1/changes/{id}/approve", "/v1/changes/{id}/reject", "/v1/protection", "/v1/history", "/v1/history/{revision}",
    "/v1/history/{revision}/restore", "/v1/rollout", "/v1/reports", "/v1/status", "/v1/clients", "/v1/resolved",
    "/v1/tokens", "/v1/tokens-studio", "/v1/schedule", "/v1/schedule/{id}",
    "/v1/tuf/status", "/v1/tuf/metadata/{file}", "/v1/tuf/targets/{file}", "/v1/tuf/targets/candidate/{file}",
    "/ofrep/v1/evaluate/flags", "/ofrep/v1/evaluate/flags/{key}", "/ofrep/v1/events",
]
ENVIRONMENT = '      - $ref: "#/components/parameters/Environment"\n'
NOT_FOUND = '        "404": { $ref: "#/components/responses/Problem" }\n'


def environment_path(route):
    rest = route[len("/v1"):] if route.startswith("/v1/") else route
    return "/v1/environments/{environment}" + rest


def blocks(lines):
    """The path items of the document's `paths`, by path: (first line, end line)."""
    found, start, current = {}, None, None
    in_paths = False
    for index, line in enumerate(lines):
        if line == "paths:\n":
            in_paths = True
            continue
        if in_paths and re.match(r"^\S", line):
            if current:
                found[current] = (start, index)
            break
        match = re.match(r"^  (/\S*):\s*$", line)
        if in_paths and (match or line in (BEGIN, END)):
            if current:
                found[current] = (start, index)
            current, start = (match.group(1) if match else None), index
    return found


def copy(lines, path):
    out = [f"  {environment_path(path)}:\n"]
    body = lines[1:]
    if "    parameters:\n" not in body:
        out += ["    parameters:\n", ENVIRONMENT]
    # The path item's parts, each starting at an indent of four: its operations and parameters.
    parts, part = [], []
    for line in body:
        if re.match(r"^    \S", line) and part:
            parts.append(part)
            part = []
        part.append(line)
    if part:
        parts.append(part)
    for part in parts:
        has_404 = any(line.startswith('        "404":') for line in part)
        for line in part:
            out.append(re.sub(r"^(\s+operationId: )(\w+)$", r"\1\2InEnvironment", line))
            if line == "    parameters:\n":
                out.append(ENVIRONMENT)
            if line == "      responses:\n" and not has_404:
                out.append(NOT_FOUND)
    return "".join(out)


def render(text):
    lines = text.splitlines(keepends=True)
    if BEGIN in lines:
        start, end = lines.index(BEGIN), lines.index(END)
        lines = lines[:start] + lines[end + 1:]
    items = blocks(lines)
    generated = [BEGIN]
    for route in ROUTES:
        if route in items:
            start, end = items[route]
            generated.append(copy(lines[start:end], route))
    generated.append(END)
    # After the last path item.
    last_end = max(end for _, end in items.values())
    return "".join(lines[:last_end] + generated + lines[last_end:])


def main():
    text = DOCUMENT.read_text()
    rendered = render(text)
    if "--check" in sys.argv:
        if rendered != text:
            sys.exit("openapi.yaml: the environment paths are not what Tests/OpenAPI/environment_paths.py writes; run it")
        return
    DOCUMENT.write_text(rendered)


if __name__ == "__main__":
    main()
