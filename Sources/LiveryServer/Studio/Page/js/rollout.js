// The staged rollout (GET /v1/rollout): its share, and the cohort's clients that applied the
// candidate, refused it or reported a problem, against the cohort's expected size; with the push
// token, buttons to widen it, abort it and complete it (POST /v1/rollout with If-Match on the
// rollout's id, after a confirmation). Asked again every second, like the fleet.
import * as api from "./api.js";
import * as changes from "./changes.js";
import { el, notify, repeating, shortTag } from "./dom.js";

const $ = (id) => document.getElementById(id);
let shown = null;
let pending = null;
let editable = () => false;

/** Wires the buttons; `canWrite()` says whether the page holds a push token. */
export function init({ canWrite }) {
  editable = canWrite;
  $("rollout-set").addEventListener("click", () => {
    const percent = $("rollout-percent").value.trim();
    ask(`Change the share of rollout ${shown.id} to ${percent} %?`, { action: "set", percent: `${percent}%` });
  });
  $("rollout-abort").addEventListener("click", () => {
    ask(`Abort rollout ${shown.id}? Every client of its cohort goes back to the stable version.`,
      { action: "abort", reason: "aborted in Livery Studio" });
  });
  $("rollout-complete").addEventListener("click", () => {
    ask(`Complete rollout ${shown.id}? Its candidate becomes the stable version for every client.`,
      { action: "complete", message: "completed in Livery Studio" });
  });
  $("rollout-cancel").addEventListener("click", closeConfirmation);
  $("rollout-yes").addEventListener("click", () => change(pending));
}

function ask(question, body) {
  pending = { id: shown.id, body };
  $("rollout-confirm-text").textContent = question;
  $("rollout-confirm").hidden = false;
  $("rollout-actions").hidden = true;
}

function closeConfirmation() {
  pending = null;
  $("rollout-confirm").hidden = true;
  draw(shown);
}

async function change(request) {
  if (!request) return;
  const answer = await api.changeRollout(request.id, request.body);
  closeConfirmation();
  if (answer.problem) notify(`The rollout was not changed: ${answer.problem.detail ?? answer.problem.title}`);
  else if (answer.change) notify(changes.heldNote(answer.change));
  else notify("");
  await refresh();
}

/** Who gets which version: a share gets the candidate only while the rollout runs. */
function standing(rollout) {
  const candidate = shortTag(rollout.candidate), stable = shortTag(rollout.stable);
  switch (rollout.state) {
    case "running": return `runs: ${rollout.percent} % of clients get candidate ${candidate} over stable ${stable}`;
    case "aborted":
      return `was aborted at ${rollout.percent} %: candidate ${candidate} withdrawn, `
        + `every client returned to stable ${stable}`;
    case "completed": return `was completed: candidate ${candidate} became the stable version of every client`;
    default: return `${rollout.state} at ${rollout.percent} %: candidate ${candidate} over stable ${stable}`;
  }
}

/** Asks for the rollout now (one request at a time), and again a second after it ends. */
export const refresh = repeating(() => api.rollout(), draw, (error) => {
  $("rollout-summary").textContent = `Rollout status unavailable: ${error.message}`;
});

function draw(rollout) {
  shown = rollout;
  const panel = $("rollout");
  panel.dataset.state = rollout?.state ?? "none";
  panel.dataset.percent = rollout?.percent ?? "";
  if (!rollout) {
    $("rollout-summary").textContent = "No rollout has run: start one with `livery push FILES --rollout 10%`.";
    $("rollout-counts").replaceChildren();
    $("rollout-bar").replaceChildren();
    $("rollout-actions").hidden = true;
    return;
  }
  const cohort = rollout.cohort;
  $("rollout-summary").textContent = `Rollout ${rollout.id} ${standing(rollout)}`
    + (rollout.message ? ` (${rollout.message})` : "")
    + (rollout.abortReason ? `. Aborted: ${rollout.abortReason}` : ".")
    + (rollout.state === "running" ? ` Aborts by itself at ${rollout.abortWhen} refusal or problem report.` : "");
  const count = (name, label, value) => [
    el("dt", { text: label }),
    el("dd", { attrs: { "data-count": name }, text: value }),
  ];
  $("rollout-counts").replaceChildren(
    ...count("expected", "in the cohort", cohort.expected),
    ...count("applied", "applied the candidate", cohort.applied),
    ...count("refused", "refused it", cohort.refused),
    ...count("problems", "reported a problem", cohort.problems),
  );
  const part = el("span", { class: "segment current", attrs: { title: `${cohort.applied} of ${cohort.expected}` } });
  // Through the CSSOM: the Content-Security-Policy refuses style attributes.
  part.style.width = `${cohort.expected ? (100 * cohort.applied) / cohort.expected : 0}%`;
  $("rollout-bar").replaceChildren(part);
  const running = rollout.state === "running";
  $("rollout-actions").hidden = !running || !editable() || !$("rollout-confirm").hidden;
  if (running && document.activeElement !== $("rollout-percent")) $("rollout-percent").value = rollout.percent;
}
