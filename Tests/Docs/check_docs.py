#!/usr/bin/env python3
"""Checks that the documentation holds together: its links resolve and its Swift samples are compiled.

Links. In README.md, docs/, Benchmarks/, Fuzz/, Soak/ and every DocC catalogue
(`Sources/*/*.docc/*.md`), a relative Markdown link or image names a file or folder that exists,
and its `#anchor`, if any, a heading of that Markdown file (GitHub's rule for anchors). A DocC
`<doc:Name>` names an article of the same catalogue (`Name.md`). Links in code are not links.

Samples. Every ```swift block of README.md and of the DocC articles is compiled: it is held word
for word by a region of a Swift file under Tests/ or Examples/ (which scripts/test builds):

    // sample: Sources/Livery/Livery.docc/BuiltInTraits.md
    ...the block's lines, indented as the marker is...
    // sample end

The region's lines, less the marker's indentation, are the block's lines. The block's leading
`import` lines are not in the region (a region is usually inside a function): the region's file
must import each of those modules itself. Every region must match a block of the document it
names, so an edit on either side that the other lacks fails here, naming both places.

Usage: python3 Tests/Docs/check_docs.py
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
DOC_REFERENCE = re.compile(r"<doc:([A-Za-z0-9_-]+)(?:#[^>]*)?>")
REGION_START = re.compile(r"^(\s*)// sample: (\S+)\s*$")
REGION_END = re.compile(r"^\s*// sample end\s*$")
IMPORT = re.compile(r"^(?:@\w+\s+)*import\s+(?:\w+\s+)?(\w+)")


def markdown_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in ["docs", "Benchmarks", "Fuzz", "Soak"]:
        files += sorted((ROOT / folder).glob("*.md"))
    return files + sorted(ROOT.glob("Sources/*/*.docc/*.md"))


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside code fences, numbered from 1, with inline code removed."""
    out, fence = [], None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        out.append((number, re.sub(r"`[^`]*`", "", line)))
    return out


def anchors(document: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    text = document.read_text()
    fence = None
    seen: dict[str, int] = defaultdict(int)
    found = set()
    for line in text.split("\n"):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```"):
            fence = "```"
            continue
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            found.add(slug if seen[slug] == 0 else f"{slug}-{seen[slug]}")
            seen[slug] += 1
    return found


def check_links() -> list[str]:
    problems = []
    for document in markdown_files():
        name = document.relative_to(ROOT)
        text = document.read_text()
        for number, line in prose_lines(text):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL
                path_part, _, anchor = target.partition("#")
                linked = (document.parent / path_part).resolve() if path_part else document
                catalogue = next((parent for parent in document.parents if parent.suffix == ".docc"), None)
                if not linked.exists() and catalogue is not None and "/" not in path_part:
                    # DocC finds an image by its name anywhere in the catalogue (its Resources folder).
                    linked = next(catalogue.rglob(path_part), linked)
                if not linked.exists():
                    problems.append(f"{name}:{number}: the link '{target}' names no file ({linked.relative_to(ROOT) if linked.is_relative_to(ROOT) else linked})")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    problems.append(f"{name}:{number}: the link '{target}' names no heading of {linked.relative_to(ROOT)}")
            if ".docc" in document.parts[-2]:
                for article in DOC_REFERENCE.findall(line):
                    if not (document.parent / f"{article}.md").exists():
                        problems.append(f"{name}:{number}: <doc:{article}> names no article of {document.parent.relative_to(ROOT)}")
    return problems


def swift_blocks(document: Path) -> list[tuple[int, list[str]]]:
    lines = document.read_text().split("\n")
    found, index = [], 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start, body = index + 1, []
            index += 1
            while lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            found.append((start, body))
        index += 1
    return found


def regions() -> list[tuple[Path, int, str, list[str], set[str]]]:
    """Every sample region: its file, line, document, lines (less the marker's indentation) and the file's imports."""
    found = []
    for source in sorted(list(ROOT.glob("Tests/**/*.swift")) + list(ROOT.glob("Examples/**/*.swift"))):
        if ".build" in source.parts:
            continue
        lines = source.read_text().split("\n")
        imports = {m.group(1) for line in lines if (m := IMPORT.match(line))}
        index = 0
        while index < len(lines):
            start = REGION_START.match(lines[index])
            if start:
                indentation, document, body, first = start.group(1), start.group(2), [], index + 1
                index += 1
                while index < len(lines) and not REGION_END.match(lines[index]):
                    line = lines[index]
                    if line.strip() and not line.startswith(indentation):
                        raise SystemExit(f"check-docs: {source.relative_to(ROOT)}:{index + 1}: a sample line indented less than its marker")
                    body.append(line[len(indentation):] if line.strip() else "")
                    index += 1
                if index == len(lines):
                    raise SystemExit(f"check-docs: {source.relative_to(ROOT)}:{first}: '// sample:' without '// sample end'")
                found.append((source, first, document, body, imports))
            index += 1
    return found


def split_imports(block: list[str]) -> tuple[list[str], list[str]]:
    modules, index = [], 0
    while index < len(block) and (m := IMPORT.match(block[index])):
        modules.append(m.group(1))
        index += 1
    if modules:
        while index < len(block) and not block[index].strip():
            index += 1
    return modules, block[index:]


def check_samples() -> tuple[list[str], int]:
    problems = []
    documents = [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md"))
    held = regions()
    used = set()
    count = 0
    for document in documents:
        name = str(document.relative_to(ROOT))
        for line, block in swift_blocks(document):
            count += 1
            modules, code = split_imports(block)
            matches = [i for i, r in enumerate(held) if r[2] == name and r[3] == code]
            if not matches:
                problems.append(
                    f"{name}:{line}: this ```swift block is held by no compiled sample: a `// sample: {name}` region "
                    "of a Swift file under Tests/ or Examples/ must hold it word for word (its imports aside)")
                continue
            used.update(matches)
            for i in matches:
                missing = [m for m in modules if m not in held[i][4]]
                if missing:
                    problems.append(f"{held[i][0].relative_to(ROOT)}:{held[i][1]}: the sample of {name}:{line} imports "
                                    f"{', '.join(missing)}, which this file does not")
    for i, (source, line, document, _, _) in enumerate(held):
        if i not in used:
            problems.append(f"{source.relative_to(ROOT)}:{line}: this sample region matches no ```swift block of {document} "
                            "(the document or the sample changed without the other)")
    return problems, count


def main() -> int:
    problems = check_links()
    sample_problems, count = check_samples()
    problems += sample_problems
    for problem in problems:
        print(f"check-docs: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-docs: every relative link and <doc:> reference resolves; all {count} Swift samples are compiled ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
