#!/usr/bin/env python3
"""Checks the house's logging convention in Sources/: every metadata key is `livery.*` (so a
program's own log handler can tell Livery's fields from its own and from other libraries'), and
every message starts in lower case (messages are fixed phrases; the values go in metadata).

Usage: python3 Tests/Docs/check_log_calls.py   (from anywhere)
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LEVELS = "trace|debug|info|notice|warning|error|critical"
MESSAGE = re.compile(r"\b(?:logger|log)\.(?:" + LEVELS + r")\(\s*\"([^\"]*)")
KEY = re.compile(r"\"([^\"\\]+)\"\s*:")
SUBSCRIPT = re.compile(r"\[metadataKey:\s*\"([^\"]+)\"\]")


def metadata_blocks(text):
    """(offset, text) of each metadata literal, brackets balanced: a log call's `metadata: [...]`,
    a `metadata(adding: [...])` merge and a `Logger.Metadata` value (`= [...]`, `{ [...] }`)."""
    for match in re.finditer(r"(?:\bmetadata(?:\(adding)?:|\bLogger\.Metadata\s*[={])\s*\[", text):
        depth, index = 1, match.end()
        while depth and index < len(text):
            depth += {"[": 1, "]": -1}.get(text[index], 0)
            index += 1
        yield match.start(), text[match.end():index - 1]


def main():
    problems = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        text = path.read_text()
        place = lambda offset: f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"
        for offset, block in metadata_blocks(text):
            # Keys only at the literal's top level: a value's own string interpolation is not one.
            for key in KEY.findall(re.sub(r"\\\(.*?\)", "", block)):
                if not key.startswith("livery."):
                    problems.append(f"{place(offset)}: metadata key '{key}' is not livery.*")
        for match in SUBSCRIPT.finditer(text):
            if not match.group(1).startswith("livery."):
                problems.append(f"{place(match.start())}: metadata key '{match.group(1)}' is not livery.*")
        for match in MESSAGE.finditer(text):
            if match.group(1)[:1].isupper():
                problems.append(f"{place(match.start())}: log message '{match.group(1)[:50]}' starts in upper case")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("Sources/: every log metadata key is livery.*, every message lower case")


if __name__ == "__main__":
    main()
