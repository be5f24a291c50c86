// The history of publishes: each with its revision, time, message and paths; a chosen
// revision's bundle and what restoring it would change in the live one; and the restore itself,
// a new publish validated like every write, after a confirmation. A history the daemon cannot
// read now (its store unreachable) shows the daemon's answer as a note instead.
import * as api from "./api.js";
import * as changes from "./changes.js";
import { el, notify } from "./dom.js";
import { canonicalLines, diffLines, foldUnchanged } from "./diff.js";

const $ = (id) => document.getElementById(id);
const limit = 50;
let selected = null;
let liveTag = () => null;

/** Wires the restore buttons; `etag()` answers the live bundle's ETag the page shows. */
export function init({ etag }) {
  liveTag = etag;
  $("restore").addEventListener("click", () => {
    $("restore-confirm").hidden = false;
    $("restore").hidden = true;
  });
  $("restore-cancel").addEventListener("click", closeConfirmation);
  $("restore-yes").addEventListener("click", () => restore(selected));
}

function closeConfirmation() {
  $("restore-confirm").hidden = true;
  $("restore").hidden = false;
}

/** Re-reads the history (after each new version) and redraws the chosen revision's diff. */
export async function refresh() {
  const answer = await api.history(limit);
  const panel = $("history");
  if (answer.problem) {
    panel.dataset.state = "unavailable";
    $("history-note").textContent = answer.problem.detail ?? answer.problem.title;
    $("history-list").replaceChildren();
    $("history-detail").hidden = true;
    return;
  }
  panel.dataset.state = "available";
  $("history-note").textContent = answer.entries.length ? "" : "Nothing published yet.";
  $("history-list").replaceChildren(...answer.entries.map(entry));
  if (selected !== null) await choose(selected, { keepStatus: true });
}

function entry(publish) {
  return el("li", {}, [el("button", {
    class: publish.revision === selected ? "publish active" : "publish",
    attrs: { type: "button", "data-revision": publish.revision },
    on: {
      click: () => choose(publish.revision)
        .catch((error) => notify(`Could not read revision ${publish.revision}: ${error.message}`)),
    },
  }, [
    el("span", { class: "revision", text: `r${publish.revision}` }),
    el("span", { class: "time", text: new Date(publish.time).toLocaleString() }),
    el("span", { class: "message", text: publish.message || "(no message)" }),
    el("span", { class: "paths", text: publish.paths.join(", ") }),
  ])]);
}

/** Shows revision `revision`: its bundle and how restoring it would change the live one. */
async function choose(revision, { keepStatus = false } = {}) {
  selected = revision;
  for (const button of $("history-list").querySelectorAll(".publish")) {
    button.classList.toggle("active", Number(button.dataset.revision) === revision);
  }
  $("history-detail").hidden = false;
  $("history-detail").dataset.revision = revision;
  $("history-title").textContent = `Revision ${revision}`;
  if (!keepStatus) {
    closeConfirmation();
    report("", "");
  }
  const [then, live] = await Promise.all([api.historicBundle(revision), api.bundle()]);
  if (selected !== revision) return;
  if (then.problem) {
    $("history-diff").replaceChildren(el("p", { class: "problem-text", text: then.problem.detail ?? then.problem.title }));
    $("history-bundle").textContent = "";
    $("restore").disabled = true;
    return;
  }
  $("restore").disabled = !api.can("push");
  $("history-bundle").textContent = JSON.stringify(then.bundle, null, 2);
  drawDiff(diffLines(canonicalLines(live), canonicalLines(then.bundle)), revision);
}

function drawDiff(lines, revision) {
  const target = $("history-diff");
  if (lines === null) {
    target.replaceChildren(el("p", { text: "Too large to compare line by line; the whole bundle is below." }));
    return;
  }
  if (lines.every((line) => line.kind === "same")) {
    target.dataset.changes = 0;
    target.replaceChildren(el("p", { text: `Revision ${revision} has the same specs as the live version.` }));
    return;
  }
  const mark = { same: "  ", add: "+ ", del: "- " };
  const rows = foldUnchanged(lines).map((line) => line.kind === "skip"
    ? el("div", { class: "skip", text: `… ${line.count} unchanged line${line.count === 1 ? "" : "s"}` })
    : el("div", { class: line.kind, text: mark[line.kind] + line.text }));
  target.dataset.changes = lines.filter((line) => line.kind !== "same").length;
  target.replaceChildren(
    el("p", { text: `Restoring revision ${revision} would change the live bundle like this (- live, + restored):` }),
    el("pre", { class: "diff" }, rows));
}

function report(state, content) {
  const line = $("restore-status");
  line.dataset.state = state;
  line.replaceChildren(content);
}

/** What a refused restore says: the daemon's own explanation, and for 412 and 422 what to do. */
function refusal(answer, revision) {
  const problem = answer.problem;
  if (answer.status === 412) {
    return "Not restored: the live specs changed after this page showed them. Look at the new diff and restore again.";
  }
  if (answer.status === 422) {
    const errors = (problem.errors ?? []).map((e) => `${e.file}${e.line ? `:${e.line}:${e.column}` : ""}: ${e.message}`);
    return `Not restored: the specs of revision ${revision} do not validate on this daemon: ${errors.join("; ")}`;
  }
  return `Not restored: ${problem.detail ?? problem.title}.`;
}

const refusalStates = { 409: "conflict", 410: "compacted", 412: "changed", 422: "invalid" };

async function restore(revision) {
  if (revision === null || !api.can("push")) return;
  $("restore-yes").disabled = true;
  report("restoring", `Restoring revision ${revision}…`);
  let answer;
  try {
    answer = await api.restore(revision, liveTag());
  } catch (error) {
    answer = { status: 0, problem: { detail: `the daemon could not be reached (${error.message})` } };
  }
  $("restore-yes").disabled = false;
  closeConfirmation();
  if (answer.change) {
    report("held", changes.heldNote(answer.change));
  } else if (answer.result) {
    report("restored", `Restored revision ${revision} as revision ${answer.result.revision}.`);
  } else if (answer.status === 401) {
    report("refused", "Not restored: the push token was refused.");
    api.refuseToken();
  } else {
    report(refusalStates[answer.status] ?? "refused", refusal(answer, revision));
  }
}

/** Redraws the restore button for the editing mode (it needs a push key). */
export function showMode() {
  $("restore").disabled = !api.can("push") || $("history-bundle").textContent === "";
}
