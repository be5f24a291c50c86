// Livery Studio: follows the daemon's live bundle and draws identifiers, palette, themes, the
// preview and the files from it. The preview and the samples are styled by the daemon's own
// stylesheet, followed with the browser client every web page uses.
import { follow as followStyleSheet } from "/v1/livery.js";
import * as api from "./api.js";
import { el, notify, shortTag } from "./dom.js";
import * as environments from "./environments.js";
import * as files from "./files.js";
import * as fleet from "./fleet.js";
import * as rollout from "./rollout.js";
import * as history from "./history.js";
import * as promotion from "./promotion.js";
import * as changes from "./changes.js";
import * as schedule from "./schedule.js";
import * as signing from "./signing.js";
import { drawList, drawDetail } from "./identifiers.js";
import { drawVariables, drawThemes } from "./palette.js";
import { scene } from "./preview.js";

const $ = (id) => document.getElementById(id);

const state = {
  inspection: null,
  // The trait types the daemon knows, by name (GET /v1/traits): how to show and edit each field.
  traits: new Map(),
  etag: null,
  look: 0,
  selected: null,
  search: "",
  // Counts preview drawings, so that a slow dry run does not draw over a newer one.
  previewSequence: 0,
};

// The live stylesheet, in this page's adoptedStyleSheets; its theme is the previewed look. The
// page shows the fleet rather than belonging to it, so it does not report. Followed once the
// environment is known (start).
let live = null;

const editable = () => api.can("push");

/** The name of the previewed look; null for no theme. */
const lookName = () => state.inspection?.looks[state.look] ?? null;

/** The live scene, and beside it the scene the unsaved files would make, rendered by the daemon. */
async function drawPreviews() {
  live?.setTheme(lookName());
  const sequence = ++state.previewSequence;
  const scenes = [scene("Live")];
  if (editable() && files.hasUnsavedChanges()) {
    const answer = await api.styleSheet(files.unsavedFiles(), lookName());
    if (sequence !== state.previewSequence) return;
    // An unsaved text that does not validate has no look: its errors show in the editor.
    if (answer.css !== undefined) scenes.push(scene("Unsaved", answer.css));
  }
  $("previews").replaceChildren(...scenes);
}

function draw() {
  const inspection = state.inspection;
  if (!inspection) return;
  const select = $("look");
  select.replaceChildren(...inspection.looks.map((look, index) => el("option", { text: look ?? "default", attrs: { value: index } })));
  if (state.look >= inspection.looks.length) state.look = 0;
  select.value = String(state.look);
  if (!inspection.identifiers.some((identifier) => identifier.name === state.selected)) {
    state.selected = inspection.identifiers[0]?.name ?? null;
  }
  drawList($("identifier-list"), inspection, { search: state.search, selected: state.selected, choose });
  $("detail-title").textContent = state.selected ? `Traits of ${state.selected}` : "Traits";
  drawDetail($("identifier-detail"), inspection.identifiers.find((i) => i.name === state.selected), state.look, {
    reveal: files.reveal, editable: editable(), editField, traits: state.traits,
  });
  drawVariables($("variables"), inspection, state.look, { editable: editable(), edit, reveal: files.reveal });
  drawThemes($("themes"), inspection, state.look, { choose: chooseLook, reveal: files.reveal });
  drawPreviews();
}

function choose(name) {
  state.selected = name;
  draw();
}

function chooseLook(index) {
  state.look = index;
  draw();
}

async function edit(path, place, literal) {
  await files.replaceScalar(place, literal);
  drawPreviews();
}

async function editField(place, literal) {
  await files.replaceScalar(place, literal);
  drawPreviews();
}

async function reload() {
  const [{ body, etag }, status, traits] = await Promise.all([api.resolved(), api.status(), api.traits()]);
  state.traits = new Map(traits.map((trait) => [trait.type, trait]));
  state.inspection = body;
  state.etag = etag;
  const version = $("version");
  version.textContent = shortTag(etag);
  version.dataset.etag = etag ?? "";
  $("changed").textContent = status.loadedAt ? `changed ${new Date(status.loadedAt).toLocaleString()}` : "";
  draw();
  fleet.refresh();
  rollout.refresh();
  signing.refresh();
  await Promise.all([files.refresh(), history.refresh()]);
}

function follow() {
  const connection = $("connection");
  api.follow(
    (etag) => {
      if (etag !== state.etag) reload().catch((error) => notify(`Could not reload: ${error.message}`));
    },
    (live) => {
      connection.textContent = live ? "live" : "reconnecting";
      connection.className = live ? "pill live" : "pill";
    });
}

/** Asks what the kept key may do, then redraws the controls for it. */
async function showKey() {
  try {
    await api.loadGrant();
  } catch (error) {
    notify(`Could not ask the daemon what the key may do: ${error.message}`);
  }
  showMode();
}

function showMode() {
  const writable = editable();
  const holdsKey = Boolean(api.keyName());
  const mode = $("mode");
  mode.textContent = writable ? "editing" : "read-only";
  mode.title = holdsKey ? `key ${api.keyName()}` : "no key";
  mode.className = writable ? "pill editing" : "pill readonly";
  $("token").hidden = holdsKey;
  $("unlock").hidden = holdsKey;
  $("lock").hidden = !holdsKey;
  document.body.classList.toggle("readonly", !writable);
  files.show();
  history.showMode();
  promotion.showMode();
  changes.showMode();
  schedule.showMode();
  rollout.refresh();
  draw();
}

async function start() {
  await environments.ready();
  live = followStyleSheet(location.origin, {
    report: false, token: api.token() || undefined, environment: api.environment || undefined,
  });
  history.init({ etag: () => state.etag });
  rollout.init({ canWrite: () => api.can("rollout") });
  files.init({ edited: () => drawPreviews() });
  promotion.init({ canWrite: () => api.can("promote") });
  environments.init({ unsaved: files.hasUnsavedChanges, listed: promotion.listed });
  changes.init();
  schedule.init();
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    api.setToken($("token").value.trim() || null);
    $("token").value = "";
    notify("");
    showKey();
    // Read again only if nothing could be read without the token (--read-token-file). A page
    // that shows a version keeps it until the event stream tells of the next one: the ETag a
    // restore sends in If-Match is the one of the version whose diff the page showed.
    if (state.etag === null) reload().catch((error) => notify(`Could not read the daemon: ${error.message}`));
  });
  $("lock").addEventListener("click", () => { api.setToken(null); showMode(); });
  document.addEventListener("livery-token-needed", () => {
    notify("This daemon needs a key to be read (--require-read-key): enter a key with the read scope.");
  });
  document.addEventListener("livery-token-refused", () => {
    notify("The key was refused: the studio is read-only until you enter a key the daemon knows.");
    showMode();
  });
  $("look").addEventListener("change", () => chooseLook(Number($("look").value)));
  $("search").addEventListener("input", () => {
    state.search = $("search").value;
    drawList($("identifier-list"), state.inspection, { search: state.search, selected: state.selected, choose });
  });
  showKey();
  environments.refresh();
  fleet.refresh();
  changes.refresh();
  schedule.refresh();
  reload().catch((error) => notify(`Could not read the daemon: ${error.message}`)).finally(follow);
}

start();
