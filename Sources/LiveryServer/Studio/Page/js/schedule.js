// The schedule of the environment shown (GET …/schedule): each change planned or ended, its
// kind, steps and times, and the key that planned it. A planned change has Cancel (DELETE
// …/schedule/{id}), enabled when the kept key holds the scopes its writes need (push for a push,
// rollout for a share change, both for a progressive rollout, promote for a promotion); the
// daemon decides, and its refusal is shown.
import * as api from "./api.js";
import { refusal } from "./comparison.js";
import { el, repeating } from "./dom.js";

const $ = (id) => document.getElementById(id);
const scopes = { push: ["push"], rollout: ["rollout"], progressive: ["push", "rollout"], promotion: ["promote"] };
let shown = [];
let drawnJSON = null;

/** Wires Cancel: one listener for every planned change's button. */
export function init() {
  $("schedule-list").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-cancel]");
    if (button) cancel(button.dataset.cancel);
  });
}

/** Asks for the schedule now, and again two seconds after the answer. */
export const refresh = repeating(() => api.schedule(), draw, (error) => {
  $("schedule-note").textContent = `Schedule unavailable: ${error.message}`;
}, 2000);

/** Whether the kept key holds every scope `change`'s writes need. */
const cancellable = (change) => (scopes[change.kind] ?? ["admin"]).every((scope) => api.can(scope));

/** Redraws the Cancel buttons for the key held now. */
export function showMode() {
  for (const button of $("schedule-list").querySelectorAll("button[data-cancel]")) {
    const change = shown.find((candidate) => candidate.id === button.dataset.cancel);
    button.disabled = !change || !cancellable(change);
    button.title = button.disabled ? `needs a key with ${(scopes[change?.kind] ?? []).join(" and ")}` : "";
  }
}

const time = (text) => (text ? new Date(text).toLocaleString() : "");

/** What a planned change writes: a promotion's source and revision, else its paths. */
export function what(change) {
  if (change.kind === "promotion") {
    return `from ${change.from}` + (change.revision == null ? "" : ` at revision ${change.revision}`);
  }
  return change.paths.join(", ");
}

function step(change) {
  return (planned) => el("li", { class: "schedule-step", attrs: { "data-state": planned.state } }, [
    `${time(planned.at)}: `
      + (planned.percent == null ? change.kind : `${planned.percent} %`)
      + ` · ${planned.state}` + (planned.ranAt ? ` at ${time(planned.ranAt)}` : "")
      + (planned.detail ? ` (${planned.detail})` : ""),
  ]);
}

function draw(listing) {
  // Redrawn only when something changed, so that a click is never on a button just replaced.
  const json = JSON.stringify(listing.changes);
  if (json === drawnJSON) return showMode();
  drawnJSON = json;
  shown = listing.changes;
  // Planned first, as the daemon lists them within each group.
  const ordered = [...shown.filter((c) => c.state === "planned"), ...shown.filter((c) => c.state !== "planned")];
  $("schedule-note").textContent = shown.length ? "" : "Nothing scheduled: plan with `livery push FILES --at TIME`, `livery promote FROM TO --at TIME` or `livery rollout set P% --at TIME`.";
  $("schedule-list").replaceChildren(...ordered.map((change) => el("li", {
    class: "scheduled", attrs: { "data-id": change.id, "data-state": change.state },
  }, [
    el("div", { class: "change-head" }, [
      el("strong", { text: `${change.kind} ${change.id}` }),
      el("span", { class: "change-state", text: change.state }),
      change.state === "planned"
        ? el("button", { text: "Cancel", attrs: { type: "button", "data-cancel": change.id } })
        : null,
    ]),
    el("div", { class: "change-by", text: `by ${change.by} · planned ${time(change.createdAt)}`
      + (what(change) ? ` · ${what(change)}` : "") }),
    el("div", { class: "change-message", text: (change.message || "(no message)") + (change.detail ? ` — ${change.detail}` : "") }),
    el("ol", { class: "schedule-steps" }, change.steps.map(step(change))),
  ])));
  showMode();
}

function report(state, text) {
  const line = $("schedule-status");
  line.dataset.state = state;
  line.textContent = text;
}

async function cancel(id) {
  let answer;
  try {
    answer = await api.cancelScheduled(id);
  } catch (error) {
    answer = { status: 0, problem: { title: "Not sent", detail: `the daemon could not be reached (${error.message})` } };
  }
  if (answer.change) report("cancelled", `Cancelled ${answer.change.kind} ${id}.`);
  else {
    if (answer.status === 401) api.refuseToken();
    report("refused", `Not cancelled: ${refusal(answer.problem)}`);
  }
  await refresh();
}
