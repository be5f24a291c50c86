#!/usr/bin/env python3
"""Runs the shell blocks of the README and of the guides as a reader would, and fails when one does not work.

The documents are README.md and the DocC articles of every catalogue (`Sources/*/*.docc/*.md`,
where the guides live). Every ```sh block of them carries a marker on the line before it:

    <!-- readme-check: run SCENARIO -->
    <!-- readme-check: run SCENARIO while COMMAND -->
    <!-- readme-check: skip REASON -->

A block without one is an error, so a new block is either run or excluded with its reason.
The blocks of one scenario run in document order (README.md first, then the articles by path;
a scenario normally lives in one document) in one bash process (state carries over, as in a
terminal), in a fresh scratch folder holding a copy of the repository's `Specs/` and `deploy/`,
with the freshly built debug `livery` first on PATH and `XDG_RUNTIME_DIR` in the scratch folder.
`while COMMAND` starts COMMAND in the background first (the first terminal of "in a second
terminal, while … runs"); a program that needs a terminal gets one from `script`.

Commands that run until stopped (`livery serve`, `livery demo`, `etcd`, `curl -N`) run in the
background, whether or not the document ends them with `&`, and the runner waits until each says
it is ready (the READY table below); a line ending with `&` that is not in the table is an
error. When the scenario ends they get SIGTERM, and a `livery serve` must then exit with status 0
(the daemon's guide says so). `curl` fails on an HTTP error status (`--fail-with-body`): a 404 does not
pass for working. `$EDITOR` is a stand-in that appends a comment line to the file.

The commands use the documents' fixed ports (7878, 7879, 2379, 2380, 8080): the runner checks they
are free first. Usage: python3 Tests/Readme/check_readme.py [--livery PATH] [--keep] [SCENARIO...]
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MARKER = re.compile(r"^<!--\s*readme-check:\s*(run|skip)\s+(.*?)\s*-->\s*$")
PORTS = [7878, 7879, 2379, 2380, 8080]
SCENARIO_SECONDS = 240

# Commands that run until stopped: a prefix of their words, what their output says once they are
# ready, and whether they need a terminal.
READY = [
    (["livery", "serve"], "livery: serving", False),
    (["livery", "demo"], "livery: serving", True),
    (["etcd"], "ready to serve client requests", False),
    (["curl", "-N"], "retry:", False),
]

PRELUDE = r"""
set -euo pipefail
__pids=(); __names=(); __logs=(); __n=0; __line=""; __text=""
__at() { __line=$1; __text=$2; printf '$ %s\n' "$2"; }
__block() { printf '\n--- %s\n' "$1"; }
__ready() {
    local pid=$1 log=$2 ready=$3
    for _ in $(seq 1 600); do
        if grep -qF -- "$ready" "$log"; then return 0; fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "readme-check: $__line: '$__text' exited before it was ready:" >&2
            cat "$log" >&2; return 1
        fi
        sleep 0.1
    done
    echo "readme-check: $__line: '$__text' did not say '$ready' within 60 s:" >&2
    cat "$log" >&2; return 1
}
__background() {
    local ready=$1; shift
    __n=$((__n + 1))
    local log="$READMECHECK_LOGS/background-$__n.log"
    printf '  (in the background until the end; output in %s)\n' "$log"
    : >"$log"
    ( exec "$@" ) >"$log" 2>&1 </dev/null &
    local pid=$!
    __pids+=("$pid"); __names+=("$*"); __logs+=("$log")
    __ready "$pid" "$log" "$ready"
}
__stop() {
    local i pid status failed=0
    for ((i = ${#__pids[@]} - 1; i >= 0; i--)); do
        pid=${__pids[$i]}
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        status=0; wait "$pid" || status=$?
        if [[ ${__names[$i]} == "livery serve"* ]] && [ "$status" -ne 0 ]; then
            echo "readme-check: '${__names[$i]}' exited with status $status on SIGTERM, not 0:" >&2
            tail -n 30 "${__logs[$i]}" >&2
            failed=1
        fi
    done
    __pids=()
    return $failed
}
__failed() {
    local status=$?
    trap - EXIT
    echo "readme-check: $__line failed (status $status): $__text" >&2
    for log in "${__logs[@]}"; do echo "--- $log" >&2; tail -n 20 "$log" >&2; done
    __stop || true
    exit "$status"
}
trap __failed ERR
trap '__stop || true' EXIT
"""


@dataclass
class Block:
    document: str  # its path from the repository's root
    line: int  # of the opening fence, 1-based
    text: list[str]
    action: str = ""
    argument: str = ""

    @property
    def place(self) -> str:
        return f"{self.document}:{self.line}"


@dataclass
class Scenario:
    name: str
    blocks: list[Block] = field(default_factory=list)
    while_command: str | None = None


def documents() -> list[Path]:
    """README.md, then every DocC article, by path: the documents whose shell blocks are run."""
    return [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md"))


def blocks(document: Path) -> list[Block]:
    lines = document.read_text().split("\n")
    name = str(document.relative_to(ROOT))
    found = []
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```sh":
            start = index
            index += 1
            body = []
            while lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            block = Block(name, start + 1, body)
            previous = lines[start - 1] if start > 0 else ""
            match = MARKER.match(previous.strip())
            if match:
                block.action, block.argument = match.group(1), match.group(2)
            found.append(block)
        index += 1
    return found


def words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return command.split()


def long_running(command: str) -> str | None:
    """The `__background` call that runs `command` (without its `&` and comment), or None."""
    tokens = words(command)
    for prefix, ready, terminal in READY:
        if tokens[:1] == prefix[:1] and all(word in tokens[1:] for word in prefix[1:]):
            text = re.sub(r"\s&\s*(#.*)?$", "", command).strip()
            text = re.sub(r"\s+#\s.*$", "", text)
            if terminal:
                text = f"script -qfec {shlex.quote(text)} /dev/null"
            return f"__background {shlex.quote(ready)} {text}"
    return None


def script_for(scenario: Scenario) -> str:
    out = [PRELUDE]
    if scenario.while_command:
        background = long_running(scenario.while_command)
        if not background:
            raise SystemExit(f"readme-check: 'while {scenario.while_command}': not a command the runner can wait for")
        out.append(f"__at {shlex.quote(scenario.blocks[0].place)} {shlex.quote(scenario.while_command)}")
        out.append(background)
    for block in scenario.blocks:
        out.append(f"__block {shlex.quote(block.place)}")
        heredoc_end = None
        pending = ""
        pending_line = 0
        for offset, raw in enumerate(block.text):
            number = block.line + 1 + offset
            if heredoc_end is not None:
                out.append(raw)
                if raw.strip() == heredoc_end:
                    heredoc_end = None
                continue
            if not pending:
                pending_line = number
            pending += raw
            if raw.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            command, pending = pending, ""
            tokens = words(command)
            if not tokens:
                out.append(command)
                continue
            background = long_running(command)
            if tokens[-1] == "&" and not background:
                raise SystemExit(
                    f"readme-check: {block.document}:{pending_line}: '{command.strip()}' runs in the background, "
                    "but the runner does not know when it is ready (add it to READY)")
            out.append(f"__at {shlex.quote(f'{block.document}:{pending_line}')} {shlex.quote(command.strip())}")
            if background:
                out.append(background)
            else:
                out.append(command)
                heredoc = re.search(r"<<-?\s*'?\"?(\w+)", command)
                if heredoc:
                    heredoc_end = heredoc.group(1)
    out.append("__stop")
    return "\n".join(out) + "\n"


def busy_ports() -> list[int]:
    busy = []
    for port in PORTS:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                busy.append(port)
    return busy


def check_ports() -> None:
    """Waits a little for the ports of the scenario before (a daemon finishing its shutdown)."""
    deadline = time.monotonic() + 10
    while (busy := busy_ports()) and time.monotonic() < deadline:
        time.sleep(0.2)
    if busy:
        raise SystemExit(
            f"readme-check: port(s) {', '.join(map(str, busy))} in use; the documents' commands use fixed ports "
            f"({', '.join(map(str, PORTS))}): stop what listens there first")


def scratch_folder(livery: Path) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="livery-readme-"))
    for folder in ["Specs", "deploy"]:
        shutil.copytree(ROOT / folder, scratch / folder)
    bin_folder = scratch / ".bin"
    bin_folder.mkdir()
    (bin_folder / "livery").symlink_to(livery)
    curl = shutil.which("curl")
    if curl is None:
        raise SystemExit("readme-check: curl is missing (scripts/test installs it)")
    wrapper = bin_folder / "curl"
    wrapper.write_text(f'#!/bin/sh\nexec {curl} --fail-with-body --no-progress-meter "$@"\n')
    wrapper.chmod(0o755)
    editor = bin_folder / "readme-editor"
    editor.write_text('#!/bin/sh\nprintf "# edited by the README check\\n" >> "$1"\n')
    editor.chmod(0o755)
    # nginx's workers (user nobody when it runs as root) must reach its folders in here.
    scratch.chmod(0o755)
    runtime = scratch / ".runtime"
    runtime.mkdir(mode=0o700)
    (scratch / ".logs").mkdir()
    return scratch


def stop_daemons(scratch: Path) -> None:
    """Stops what daemonised itself (nginx) and was left running by a failed block: every process
    named by a pid file in the scratch folder."""
    for pid_file in scratch.rglob("*.pid"):
        try:
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGTERM)
        except (ValueError, IndexError, ProcessLookupError, PermissionError):
            pass


def run(scenario: Scenario, livery: Path, keep: bool) -> bool:
    check_ports()
    scratch = scratch_folder(livery)
    script = scratch / ".logs" / "scenario.sh"
    script.write_text(script_for(scenario))
    environment = dict(os.environ)
    environment.update(
        PATH=f"{scratch / '.bin'}:{environment.get('PATH', '')}",
        XDG_RUNTIME_DIR=str(scratch / ".runtime"),
        EDITOR="readme-editor",
        READMECHECK_LOGS=str(scratch / ".logs"),
        TERM=environment.get("TERM", "xterm-256color"),
    )
    print(f"=== scenario {scenario.name} ({', '.join(b.place for b in scenario.blocks)}) in {scratch}")
    started = time.monotonic()
    try:
        shell = subprocess.Popen(["bash", str(script)], cwd=scratch, env=environment, start_new_session=True)
        ok = shell.wait(timeout=SCENARIO_SECONDS) == 0
    except subprocess.TimeoutExpired:
        print(f"readme-check: scenario {scenario.name} did not finish within {SCENARIO_SECONDS} s", file=sys.stderr)
        ok = False
    # Whatever the scenario left running (its own session): stopped before the next one starts.
    try:
        os.killpg(shell.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    stop_daemons(scratch)
    print(f"=== scenario {scenario.name}: {'ok' if ok else 'FAILED'} in {time.monotonic() - started:.1f} s")
    if ok and not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--livery", default=str(ROOT / ".build" / "debug" / "livery"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    parser.add_argument("--list", action="store_true", help="list the blocks and their markers, run nothing")
    parser.add_argument("scenarios", nargs="*", help="only these scenarios")
    arguments = parser.parse_args()
    found = [block for document in documents() for block in blocks(document)]
    if arguments.list:
        for block in found:
            print(f"{block.place}: {block.action or 'UNMARKED'} {block.argument}")
        print(f"{sum(b.action == 'run' for b in found)} run, {sum(b.action == 'skip' for b in found)} skipped")
        return 0
    livery = Path(arguments.livery).resolve()
    if not os.access(livery, os.X_OK):
        raise SystemExit(f"readme-check: no livery executable at {livery}; run swift build first")
    unmarked = [b.place for b in found if not b.action]
    if unmarked:
        raise SystemExit(
            "readme-check: ```sh blocks without a readme-check marker on the line before, at "
            + ", ".join(unmarked) + " (say `run SCENARIO` or `skip REASON`)")
    scenarios: dict[str, Scenario] = {}
    for block in found:
        if block.action == "skip":
            print(f"skipped: {block.place}: {block.argument}")
            continue
        name, _, rest = block.argument.partition(" ")
        scenario = scenarios.setdefault(name, Scenario(name))
        if rest.startswith("while "):
            scenario.while_command = rest[len("while "):]
        elif rest:
            raise SystemExit(f"readme-check: {block.place}: cannot read the marker's '{rest}'")
        scenario.blocks.append(block)
    failed = [
        s.name for s in scenarios.values()
        if (not arguments.scenarios or s.name in arguments.scenarios) and not run(s, livery, arguments.keep)
    ]
    if failed:
        print(f"readme-check: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    chosen = [s for s in scenarios.values() if not arguments.scenarios or s.name in arguments.scenarios]
    ran = sum(len(s.blocks) for s in chosen)
    skipped = sum(1 for b in found if b.action == "skip")
    print(f"readme-check: every block that runs ran: {ran} blocks in {len(chosen)} scenarios "
          f"({skipped} skipped, with their reasons) across {len({b.document for b in found})} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
