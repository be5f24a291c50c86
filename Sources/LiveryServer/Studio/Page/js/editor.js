// A plain textarea with a line-number gutter; lines with errors are marked in the gutter, and
// each error is listed with its line and column (a click selects that place).
import { el, placeText } from "./dom.js";

const editor = () => document.getElementById("editor");
const gutter = () => document.getElementById("gutter");

/** Redraws the gutter for the editor's text, marking `errors` ({line, column, message}). */
export function drawGutter(errors = []) {
  const lines = editor().value.split("\n").length;
  const byLine = new Map();
  for (const error of errors) byLine.set(error.line, [...(byLine.get(error.line) ?? []), error]);
  const numbers = [];
  for (let line = 1; line <= lines; line += 1) {
    const marks = byLine.get(line);
    const number = el("div", { class: marks ? "line error" : "line", text: line, attrs: { "data-line": line } });
    if (marks) number.title = marks.map((e) => `${e.line}:${e.column}: ${e.message}`).join("\n");
    numbers.push(number);
  }
  gutter().replaceChildren(...numbers);
  gutter().scrollTop = editor().scrollTop;
}

/** Selects line `line`, column `column` (1-based, Unicode scalars) in the editor. */
export function select(line, column) {
  const area = editor();
  const lines = area.value.split("\n");
  let offset = 0;
  for (let index = 0; index < Math.min(line - 1, lines.length); index += 1) offset += lines[index].length + 1;
  const prefix = Array.from(lines[line - 1] ?? "").slice(0, column - 1).join("");
  offset += prefix.length;
  area.focus();
  area.setSelectionRange(offset, offset + 1);
  const lineHeight = area.scrollHeight / Math.max(lines.length, 1);
  area.scrollTop = Math.max(0, (line - 4) * lineHeight);
}

/** Lists `errors` (every file's) under the editor; those of `path` are selectable. */
export function listProblems(errors, path, onPick) {
  const items = errors.map((error) => {
    const text = `${placeText(error)}: error: ${error.message}`;
    return el("li", {
      class: error.file === path ? "problem here" : "problem",
      text,
      attrs: { "data-file": error.file, "data-line": error.line, "data-column": error.column },
      on: { click: () => onPick(error) },
    });
  });
  document.getElementById("problems").replaceChildren(...items);
}

/** Wires the gutter to follow the editor's scrolling. */
export function attach() {
  editor().addEventListener("scroll", () => { gutter().scrollTop = editor().scrollTop; });
}
