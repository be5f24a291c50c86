#!/usr/bin/env python3
"""Checks the claims of docs/ARCHITECTURE.md that Package.swift can settle.

"Modules, one job each" must list every module under Sources/ that is not a C shim, and each
row's "depends on" must name every dependency Package.swift gives that module (a module by its
name, a product by its own name or its package's) and no Livery module that is not one. A C
module (CLibYAML, CInotifyTools, CPrefetch) need not have a row, but must be named by every row
that depends on it. And each module imports exactly what Package.swift declares for it (a
module imported but not declared builds only by accident of another's dependencies; one declared
but never imported is dead weight). The limits table is checked against the constants by
Tests/LiveryServerTests/ArchitectureLimitsTests.swift.

Usage: python3 Tests/Docs/check_architecture.py   (from anywhere; needs `swift` on PATH)
"""

import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def package():
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return json.loads(dump.stdout)


def dependencies(target):
    """(kind, name, package) for each dependency of a target, kind "module" or "product"."""
    for dependency in target.get("dependencies", []):
        for kind, value in dependency.items():
            if kind in ("byName", "target"):
                yield "module", value[0], None
            elif kind == "product":
                yield "product", value[0], value[1]


def module_rows(text):
    """{module: depends-on cell} from the table under "## Modules, one job each"."""
    section = text.split("## Modules, one job each", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        rows[cells[0].strip("`")] = cells[2]
    return rows


# Modules of the toolchain and the system, which no package declares. CDispatch is the clang
# module this toolchain files `struct stat`'s members under, so MemberImportVisibility asks for it.
SYSTEM_MODULES = {"Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch",
                  "Synchronization", "Testing", "XCTest", "_Concurrency", "RegexBuilder", "CDispatch"}
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*(?:public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)?"
                    r"import\s+(?:(?:struct|enum|class|func|protocol|typealias|var|let)\s+)?(\w+)", re.M)


def imports(module):
    """The modules the Swift files of Sources/<module> import, but the module itself."""
    found = set()
    for path in (ROOT / "Sources" / module).rglob("*.swift"):
        found |= set(IMPORT.findall(path.read_text()))
    return found - {module}


def names(cell):
    """The words of a cell, so `swift-log` and `CLibYAML` each count as one."""
    return set(re.findall(r"[A-Za-z][A-Za-z0-9_-]*", cell))


def main():
    document = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    targets = {target["name"]: target for target in package()["targets"]}
    sources = {name for name, target in targets.items()
               if target.get("path") is None and target["type"] in ("regular", "executable", "system")}
    c_modules = {name for name in sources if (ROOT / "Sources" / name).is_dir()
                 and not any((ROOT / "Sources" / name).rglob("*.swift"))}
    rows = module_rows(document)
    problems = []
    for name in sorted(sources - c_modules - rows.keys()):
        problems.append(f"module {name} (Package.swift) has no row in 'Modules, one job each'")
    for name in sorted(rows.keys() - sources):
        problems.append(f"row {name}: no such module under Sources/ in Package.swift")
    for name, cell in sorted(rows.items()):
        if name not in targets:
            continue
        said = names(cell)
        said_lower = {word.lower() for word in said}
        actual_modules = set()
        for kind, dependency, package_name in dependencies(targets[name]):
            if kind == "module":
                actual_modules.add(dependency)
                if dependency not in said:
                    problems.append(f"row {name}: depends on {dependency}, which its row does not name")
            elif dependency not in said and (package_name or "").lower() not in said_lower:
                problems.append(
                    f"row {name}: depends on {dependency} (package {package_name}), which its row names neither way")
        declared = {dependency for _, dependency, _ in dependencies(targets[name])}
        imported = imports(name)
        for module in sorted(imported - declared - SYSTEM_MODULES):
            problems.append(f"module {name} imports {module}, which Package.swift does not declare for it")
        for module in sorted(declared - imported - c_modules):
            problems.append(f"module {name} declares {module} in Package.swift but never imports it")
        for other in sorted((said & sources) - actual_modules - {name}):
            problems.append(f"row {name}: names {other} as a dependency, which Package.swift does not give it")
    for problem in problems:
        print(f"docs/ARCHITECTURE.md: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"docs/ARCHITECTURE.md: {len(rows)} module rows agree with Package.swift")


if __name__ == "__main__":
    main()
