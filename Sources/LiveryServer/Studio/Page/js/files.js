// The spec files: one editor, a tab per file. While typing, the text is checked by the daemon's
// own validation (a dry-run PUT); saving is the same validated, atomic PUT with If-Match, so a
// change saved elsewhere meanwhile comes back as a conflict showing both versions.
import * as api from "./api.js";
import * as changes from "./changes.js";
import { el } from "./dom.js";
import { drawGutter, select, listProblems, attach } from "./editor.js";

const docs = new Map();
let current = null;
let onEdit = () => {};

const $ = (id) => document.getElementById(id);
const isDirty = (doc) => doc.text !== doc.serverText;

/** Wires the editor and its buttons; `edited()` runs after every change of a file's text. */
export function init({ edited }) {
  onEdit = edited;
  attach();
  $("editor").addEventListener("input", () => {
    const doc = docs.get(current);
    if (!doc) return;
    doc.text = $("editor").value;
    drawGutter(doc.errors);
    changed(doc);
  });
  $("save").addEventListener("click", () => save(docs.get(current), docs.get(current)?.etag));
  $("revert").addEventListener("click", () => {
    const doc = docs.get(current);
    if (!doc) return;
    doc.text = doc.serverText;
    doc.errors = [];
    changed(doc);
    show();
  });
  $("keep-mine").addEventListener("click", () => {
    const doc = docs.get(current);
    if (doc?.conflict) save(doc, doc.conflict.etag);
  });
  $("take-theirs").addEventListener("click", () => {
    const doc = docs.get(current);
    if (!doc?.conflict) return;
    Object.assign(doc, { text: doc.conflict.text, serverText: doc.conflict.text, etag: doc.conflict.etag, conflict: null, errors: [] });
    changed(doc);
    show();
  });
}

/** Whether any file has unsaved changes. */
export const hasUnsavedChanges = () => [...docs.values()].some(isDirty);

/** The unsaved texts, by path. */
export const unsavedFiles = () => Object.fromEntries([...docs.values()].filter(isDirty).map((doc) => [doc.path, doc.text]));

/** Re-reads the file list; files without unsaved changes follow the server's copy. */
export async function refresh() {
  const listing = await api.files();
  const tabs = listing.map(({ path }) => el("button", {
    class: path === current ? "tab active" : "tab", text: path,
    attrs: { type: "button", role: "tab", "data-path": path }, on: { click: () => open(path) },
  }));
  $("file-tabs").replaceChildren(...tabs);
  for (const { path, etag } of listing) {
    const doc = docs.get(path);
    // A held text stays unsaved until the server's copy is that text: its change was applied.
    if (doc && doc.etag !== etag && (!isDirty(doc) || doc.state === "held") && !doc.conflict) {
      const fresh = await api.file(path);
      if (isDirty(doc) && fresh.text !== doc.text) continue;
      if (doc.state === "held") doc.state = "clean";
      Object.assign(doc, { text: fresh.text, serverText: fresh.text, etag: fresh.etag, errors: [] });
      if (path === current) show();
    }
  }
  if (!current && listing.length) await open(listing[0].path);
}

async function load(path) {
  if (!docs.has(path)) {
    const fresh = await api.file(path);
    docs.set(path, { path, text: fresh.text, serverText: fresh.text, etag: fresh.etag, errors: [], conflict: null, state: "clean" });
  }
  return docs.get(path);
}

/** Shows `path` in the editor. */
export async function open(path) {
  await load(path);
  current = path;
  for (const tab of $("file-tabs").children) tab.classList.toggle("active", tab.dataset.path === path);
  show();
}

/** Opens the file of `place` and selects it. */
export async function reveal(place) {
  await open(place.file);
  select(place.line, place.column);
}

/**
 * Replaces the scalar written at `place` (a variable's value) with `literal` in that file's
 * text, as an unsaved change.
 */
export async function replaceScalar(place, literal) {
  const doc = await load(place.file);
  doc.text = replaceAt(doc.text, place.line, place.column, literal);
  if (current !== place.file) await open(place.file);
  changed(doc);
  show();
}

/**
 * `text` with the value at line/column (1-based, Unicode scalars) replaced by `literal`: a
 * scalar, or a JSON object or list (a design token's `$value`) up to its matching bracket.
 */
export function replaceAt(text, line, column, literal) {
  const lines = text.split("\n");
  const opener = Array.from(lines[line - 1] ?? "")[column - 1];
  if (opener === "{" || opener === "[") return replaceBracketed(lines, line, column, literal);
  const chars = Array.from(lines[line - 1] ?? "");
  const start = column - 1;
  let end = start;
  if (chars[start] === "\"") {
    end += 1;
    while (end < chars.length && chars[end] !== "\"") end += chars[end] === "\\" ? 2 : 1;
    end += 1;
  } else if (chars[start] === "'") {
    end += 1;
    while (end < chars.length && !(chars[end] === "'" && chars[end + 1] !== "'")) end += chars[end] === "'" ? 2 : 1;
    end += 1;
  } else {
    while (end < chars.length && !",}]".includes(chars[end]) && !(chars[end] === "#" && /\s/.test(chars[end - 1] ?? " "))) end += 1;
    while (end > start && /\s/.test(chars[end - 1])) end -= 1;
  }
  chars.splice(start, end - start, ...Array.from(literal));
  lines[line - 1] = chars.join("");
  return lines.join("\n");
}

/** `lines` with the bracketed JSON value at line/column replaced by `literal`. */
function replaceBracketed(lines, line, column, literal) {
  const chars = Array.from(lines.join("\n"));
  let start = column - 1;
  for (let i = 0; i < line - 1; i += 1) start += Array.from(lines[i]).length + 1;
  let depth = 0, end = start, inString = false;
  for (; end < chars.length; end += 1) {
    const c = chars[end];
    if (inString) {
      if (c === "\\") end += 1;
      else if (c === "\"") inString = false;
    } else if (c === "\"") inString = true;
    else if (c === "{" || c === "[") depth += 1;
    else if (c === "}" || c === "]") {
      depth -= 1;
      if (depth === 0) break;
    }
  }
  chars.splice(start, end + 1 - start, ...Array.from(literal));
  return chars.join("");
}

function changed(doc) {
  doc.state = isDirty(doc) ? "dirty" : "clean";
  if (doc.path === current) status(doc);
  onEdit();
  // One pending check per file: editing another file meanwhile must not cancel this one.
  clearTimeout(doc.checkTimer);
  doc.checkTimer = setTimeout(() => check(doc), 250);
}

/** Validates the unsaved text with a dry run: the daemon answers as the write would. */
async function check(doc) {
  if (!api.can("push") || !isDirty(doc)) {
    doc.errors = [];
    if (doc.path === current) show();
    return;
  }
  doc.checkSequence = (doc.checkSequence ?? 0) + 1;
  const sequence = doc.checkSequence;
  doc.state = "checking";
  status(doc);
  const answer = await api.put(doc.path, doc.text, doc.etag, { dryRun: true });
  if (sequence !== doc.checkSequence) return;
  if (answer.status < 300) {
    doc.errors = [];
    doc.state = "valid";
  } else if (answer.status === 422) {
    doc.errors = answer.problem?.errors ?? [];
    doc.state = "invalid";
  } else if (answer.status === 412) {
    doc.state = "stale";
  } else {
    refused(doc, answer);
  }
  if (doc.path === current) show();
}

async function save(doc, etag) {
  if (!doc || !api.can("push")) return;
  // A dry run still under way answers for text and a tag this save replaces: drop its answer.
  doc.checkSequence = (doc.checkSequence ?? 0) + 1;
  clearTimeout(doc.checkTimer);
  const sent = doc.text;
  const answer = await api.put(doc.path, sent, etag);
  if (answer.change) {
    // Held as a change request: the server's copy is unchanged, so the text stays unsaved.
    Object.assign(doc, { errors: [], conflict: null, state: "held", held: answer.change });
  } else if (answer.status < 300) {
    Object.assign(doc, { serverText: sent, etag: answer.etag, errors: [], conflict: null, state: "saved" });
  } else if (answer.status === 422) {
    doc.errors = answer.problem?.errors ?? [];
    doc.state = "invalid";
  } else if (answer.status === 412) {
    const theirs = await api.file(doc.path);
    doc.conflict = theirs;
    doc.state = "conflict";
  } else {
    refused(doc, answer);
  }
  if (doc.path === current) show();
  onEdit();
}

function refused(doc, answer) {
  doc.state = "refused";
  doc.refusal = answer.problem?.detail ?? `HTTP ${answer.status}`;
  if (answer.status === 401) api.refuseToken();
}

const statusText = {
  clean: "No unsaved changes.",
  dirty: "Unsaved changes.",
  checking: "Checking with the daemon…",
  valid: "Unsaved changes: valid.",
  invalid: "Errors: not saved (the daemon keeps the last good version).",
  stale: "Changed on the server since you opened it: saving will show both versions.",
  saved: "Saved.",
  conflict: "Conflict: someone else saved this file meanwhile. Nothing was overwritten.",
  refused: "Refused",
};

function status(doc) {
  const line = $("file-status");
  line.dataset.state = doc.state;
  if (doc.state === "held") line.replaceChildren(changes.heldNote(doc.held));
  else line.textContent = doc.state === "refused" ? `${statusText.refused}: ${doc.refusal}` : statusText[doc.state];
  const writable = api.can("push");
  $("save").disabled = !writable || !isDirty(doc);
  $("revert").disabled = !isDirty(doc);
}

/** Redraws the current file: text, gutter marks, problems, status and conflict. */
export function show() {
  const doc = docs.get(current);
  if (!doc) return;
  const area = $("editor");
  if (area.value !== doc.text) area.value = doc.text;
  area.readOnly = !api.can("push");
  drawGutter(doc.errors.filter((e) => e.file === doc.path));
  listProblems(doc.errors, doc.path, (error) => (error.file === doc.path ? select(error.line, error.column) : reveal(error)));
  status(doc);
  $("conflict").hidden = !doc.conflict;
  if (doc.conflict) {
    $("conflict-mine").textContent = doc.text;
    $("conflict-theirs").textContent = doc.conflict.text;
  }
}
