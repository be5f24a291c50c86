// The change requests of the environment shown (GET …/changes), pending ones first: who asked,
// why and when, its approvals of those needed, its state and, while pending, what it would
// change (drawn as the promotion preview is). A key with the approve scope that is not the
// author's approves or rejects (with a reason); the daemon decides, and its refusal is shown.
// Also the environment's protection, and the note a held write shows: a write the daemon
// answered 202 is a change request, not a publish.
import * as api from "./api.js";
import { fileItems, identifierTable, refusal } from "./comparison.js";
import { el, repeating, shortTag } from "./dom.js";
import { what } from "./schedule.js";

const $ = (id) => document.getElementById(id);
/** The items drawn, by id: the change's JSON and its element, kept while it is unchanged. */
const drawn = new Map();

/** Wires the panel's reviews: one listener for every item's buttons. */
export function init() {
  $("changes-list").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-verdict]");
    if (button) review(Number(button.closest(".change").dataset.id), button.dataset.verdict);
  });
}

/** Asks for the change requests now, and again two seconds after the answer. */
export const refresh = repeating(() => api.changes(), draw, (error) => {
  report("refused", `Change requests unavailable: ${error.message}`);
}, 2000);

/** Whether `change` has its approvals: a daemon is applying it, and it takes no more reviews. */
const complete = (change) => change.approvals.length >= change.required;

/**
 * Whether the kept key may review `change`: the approve scope, not its author, not twice, not
 * while it is being applied.
 */
function reviewable(change) {
  const name = api.keyName();
  return change.state === "pending" && !complete(change) && api.can("approve") && name !== null
    && name !== change.author && !change.approvals.some((approval) => approval.by === name);
}

/** Redraws the review buttons for the key held now. */
export function showMode() {
  for (const item of $("changes-list").children) {
    const change = drawn.get(Number(item.dataset.id))?.change;
    if (!change) continue;
    const allowed = reviewable(change);
    for (const button of item.querySelectorAll("button[data-verdict]")) {
      button.disabled = !allowed;
      button.title = allowed ? "" : whyNot(change);
    }
  }
}

function whyNot(change) {
  if (complete(change)) return "its approvals are complete: it is being applied";
  if (!api.can("approve")) return "needs a key with the approve scope";
  if (api.keyName() === change.author) return "its author's key cannot approve it";
  return "this key reviewed it already";
}

function draw(answer) {
  const panel = $("changes");
  if (answer.problem) {
    panel.dataset.state = "unavailable";
    $("changes-note").textContent = refusal(answer.problem);
    return;
  }
  const approvals = answer.list.protection.approvals;
  panel.dataset.approvals = approvals;
  panel.dataset.state = "available";
  const protection = approvals > 0
    ? `Protected: every write waits for ${approvals} approval${approvals === 1 ? "" : "s"} by another key.`
    : "Not protected: writes publish at once.";
  $("changes-note").textContent = answer.list.changes.length ? protection : `${protection} No change requests.`;
  $("protection").hidden = approvals === 0;
  $("protection").textContent = `protected · ${approvals} approval${approvals === 1 ? "" : "s"}`;
  const ordered = [
    ...answer.list.changes.filter((change) => change.state === "pending"),
    ...answer.list.changes.filter((change) => change.state !== "pending"),
  ];
  const items = ordered.map((change) => {
    const json = JSON.stringify(change);
    const kept = drawn.get(change.id);
    if (kept?.json === json) return kept.element;
    const element = item(change, kept?.element.querySelector(".change-reason")?.value ?? "");
    drawn.set(change.id, { json, change, element });
    return element;
  });
  const list = $("changes-list");
  // Replaced only when something changed: moving the items would drop a reason being typed.
  if (items.length !== list.children.length || items.some((element, index) => list.children[index] !== element)) {
    list.replaceChildren(...items);
  }
  showMode();
}

/** What the change does once approved. */
function action(change) {
  switch (change.action) {
    case "rollout": return `starts a rollout to ${change.basisPoints / 100} % of clients`;
    case "completion": return `completes rollout ${change.rolloutID}`;
    case "schedule":
      return change.plan?.kind === "promotion"
        ? `puts in the schedule a promotion ${what(change.plan)} of`
        : "puts a plan in the schedule for";
    default: return "publishes";
  }
}

function item(change, reason) {
  const approved = change.approvals.map((review) => review.by).join(", ");
  const children = [
    el("div", { class: "change-head" }, [
      el("strong", { text: `Change ${change.id}` }),
      el("span", { class: "change-state", text: change.state }),
      el("span", { class: "change-count", text: `${change.approvals.length}/${change.required} approvals` }),
    ]),
    el("div", { class: "change-by", text: `${change.author} · ${new Date(change.time).toLocaleString()}`
      + (change.base ? ` · against ${shortTag(change.base)}` : "") }),
    el("div", { class: "change-message", text: change.message || "(no message)" }),
    el("div", { class: "muted", text: `${action(change)} ${change.paths.join(", ")}`.trim()
      + (approved ? `; approved by ${approved}` : "")
      + (change.rejection ? `; rejected by ${change.rejection.by}: ${change.rejection.message || "(no reason)"}` : "")
      + (change.revision ? `; revision ${change.revision}` : "")
      + (change.changedSince?.length ? `; the environment moved on (${change.changedSince.length} publish(es) since)` : "")
      + (change.state === "expired" ? "; its time came before its approvals: it never runs" : "")
      + (change.state === "pending" && change.applyingSince ? `; being applied since ${new Date(change.applyingSince).toLocaleString()}` : "") }),
  ];
  if (change.preview) {
    children.push(
      el("ul", { class: "promotion-files" }, fileItems(change.preview)),
      el("div", { class: "change-identifiers" }, change.preview.identifiers.map(identifierTable)));
  } else if (change.previewProblem) {
    children.push(el("p", { class: "problem-text", text: `No preview: ${change.previewProblem}` }));
  }
  if (change.state === "pending") {
    const input = el("input", { class: "change-reason", attrs: { type: "text", autocomplete: "off", "aria-label": "message or reason" } });
    input.value = reason;
    children.push(el("div", { class: "change-actions" }, [
      el("label", {}, ["Message or reason ", input]),
      el("button", { text: "Approve", attrs: { type: "button", "data-verdict": "approve" } }),
      el("button", { text: "Reject", attrs: { type: "button", "data-verdict": "reject" } }),
    ]));
  }
  return el("li", { class: "change", attrs: { id: `change-${change.id}`, "data-id": change.id, "data-state": change.state } }, children);
}

function report(state, text) {
  const line = $("changes-status");
  line.dataset.state = state;
  line.textContent = text;
}

async function review(id, verdict) {
  const item = drawn.get(id);
  if (!item || !reviewable(item.change)) return;
  const message = item.element.querySelector(".change-reason")?.value.trim() ?? "";
  for (const button of item.element.querySelectorAll("button[data-verdict]")) button.disabled = true;
  let answer;
  try {
    answer = await api.review(id, verdict, message);
  } catch (error) {
    answer = { status: 0, problem: { title: "Not sent", detail: `the daemon could not be reached (${error.message})` } };
  }
  if (answer.change) {
    report(answer.change.state, `Change ${id} ${verdict === "approve" ? "approved" : "rejected"}: now ${answer.change.state}.`);
  } else {
    if (answer.status === 401) api.refuseToken();
    report("refused", `Change ${id} not ${verdict === "approve" ? "approved" : "rejected"}: ${refusal(answer.problem)}`);
  }
  await refresh();
  showMode();
}

/**
 * What a write held for approval shows instead of "published": the change request's number,
 * linked to its item here.
 */
export function heldNote(change) {
  refresh();
  const link = el("a", { text: `change ${change.id}`, attrs: { href: `#change-${change.id}`, class: "held-link" } });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    reveal(change.id);
  });
  return el("span", { class: "held", attrs: { "data-change": change.id } }, [
    "Held for approval: ", link,
    ` (${change.approvals.length}/${change.required} approvals); nothing is published until it is approved.`,
  ]);
}

/** Scrolls to change `id`, asking for the list first if it is not drawn yet. */
async function reveal(id) {
  if (!drawn.has(id)) await refresh();
  const target = document.getElementById(`change-${id}`);
  target?.scrollIntoView({ block: "center" });
  target?.classList.add("revealed");
}
