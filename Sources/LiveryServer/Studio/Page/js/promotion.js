// Promotion to the environment the page shows: pick a source environment (and a revision of its
// history, else its newest), see what would change here (GET …/promotions/preview: the files
// added, changed and removed, each identifier whose resolved traits differ, before and after),
// then perform it (POST …/promotions) with If-Match on this environment's ETag the preview
// compared against, so that a change made here meanwhile refuses the promotion (412) rather
// than being overwritten unseen. Shown only when the daemon has another environment.
import * as api from "./api.js";
import * as changes from "./changes.js";
import { fileItems, identifierTable, refusal } from "./comparison.js";
import { el, shortTag } from "./dom.js";

const $ = (id) => document.getElementById(id);
let editable = () => false;
/** The preview shown: what a promotion sends, and its answer. */
let shown = null;

/** Wires the panel; `canWrite()` says whether the kept key may promote into the environment shown. */
export function init({ canWrite }) {
  editable = canWrite;
  $("promotion-form").addEventListener("submit", (event) => {
    event.preventDefault();
    preview().catch((error) => report("refused", `No preview: the daemon could not be reached (${error.message})`));
  });
  $("promotion-from").addEventListener("change", clear);
  $("promotion-revision").addEventListener("input", clear);
  $("promotion-perform").addEventListener("click", perform);
}

/** Lists the environments other than `target` (the one shown) as sources. */
export function listed(list, target) {
  const sources = list.environments.map((environment) => environment.name).filter((name) => name !== target);
  $("promotion").hidden = sources.length === 0;
  $("promotion-target").textContent = target;
  const select = $("promotion-from");
  if ([...select.options].map((option) => option.value).join("\n") !== sources.join("\n")) {
    const chosen = select.value;
    select.replaceChildren(...sources.map((name) => el("option", { text: name, attrs: { value: name } })));
    if (sources.includes(chosen)) select.value = chosen;
  }
}

function clear() {
  shown = null;
  $("promotion-preview-result").hidden = true;
  report("", "");
  showMode();
}

/** Redraws the promote button: it needs a key that may promote here, and a preview. */
export function showMode() {
  $("promotion-perform").disabled = !editable() || shown === null;
}

function report(state, content) {
  const line = $("promotion-status");
  line.dataset.state = state;
  line.replaceChildren(content);
}

async function preview() {
  const from = $("promotion-from").value;
  const revision = $("promotion-revision").value.trim();
  clear();
  report("previewing", `Asking what promoting ${from} would change…`);
  const answer = await api.promotionPreview(from, revision);
  if (answer.problem) {
    report("refused", `No preview: ${refusal(answer.problem)}`);
    return;
  }
  shown = { from, revision: revision ? Number(revision) : null, preview: answer.preview };
  report("", "");
  draw(answer.preview);
  showMode();
}

function draw(preview) {
  const target = $("promotion-target").textContent;
  const at = preview.revision == null ? "its current files" : `revision ${preview.revision}`;
  $("promotion-summary").textContent = `Promoting ${preview.from} at ${at} to ${target} `
    + `(now version ${shortTag(preview.targetETag)}) would add ${preview.added.length} file(s), `
    + `change ${preview.changed.length} and remove ${preview.removed.length}; `
    + `${preview.identifiers.length} identifier(s) would look different.`;
  $("promotion-preview-result").dataset.targetEtag = preview.targetETag ?? "";
  $("promotion-files").replaceChildren(...fileItems(preview));
  $("promotion-identifiers").replaceChildren(...preview.identifiers.map(identifierTable));
  $("promotion-preview-result").hidden = false;
}

async function perform() {
  if (!shown || !editable()) return;
  const { from, revision, preview } = shown;
  const body = { from };
  if (revision !== null) body.revision = revision;
  const message = $("promotion-message").value.trim();
  if (message) body.message = message;
  const share = $("promotion-rollout").value.trim();
  if (share) body.rollout = `${share}%`;
  $("promotion-perform").disabled = true;
  report("promoting", `Promoting ${from}…`);
  let answer;
  try {
    answer = await api.promote(body, preview.targetETag);
  } catch (error) {
    answer = { status: 0, problem: { title: "Not sent", detail: `the daemon could not be reached (${error.message})` } };
  }
  const target = $("promotion-target").textContent;
  if (answer.change) {
    clear();
    report("held", changes.heldNote(answer.change));
    return;
  }
  if (answer.result) {
    // The preview described the version this one replaced: a new one is needed for the next.
    clear();
    report("promoted", share
      ? `Started rollout ${answer.result.id} of ${from} to ${answer.result.percent} % of ${target}'s clients.`
      : `Promoted ${from} to ${target}: now version ${shortTag(answer.result.etag)}`
        + (answer.result.revision == null ? "." : ` (revision ${answer.result.revision}).`));
    return;
  }
  if (answer.status === 401) api.refuseToken();
  report("refused", `Not promoted: ${refusal(answer.problem)}`);
  showMode();
}
