// Livery Studio: follows the daemon's live bundle and draws identifiers, palette, themes, the
// preview and the files from it.
import * as api from "./api.js";
import { el, notify, placeText, shortTag } from "./dom.js";
import * as files from "./files.js";
import * as fleet from "./fleet.js";
import * as history from "./history.js";
import { drawList, drawDetail } from "./identifiers.js";
import { drawVariables, drawThemes } from "./palette.js";
import { scene } from "./preview.js";
import { resolveNode } from "./resolve.js";

const $ = (id) => document.getElementById(id);

const state = {
  inspection: null,
  // The trait types the daemon knows, by name (GET /v1/traits): how to show and edit each field.
  traits: new Map(),
  etag: null,
  look: 0,
  selected: null,
  search: "",
  // Unsaved variable values set with the palette's controls, by path, for the preview.
  drafts: new Map(),
  // Unsaved trait fields set with the identifier panel's controls, by the field's place.
  fieldDrafts: new Map(),
};

const editable = () => Boolean(api.token());

function traitsFor(name) {
  return state.inspection.identifiers.find((identifier) => identifier.name === name)?.traits[state.look] ?? [];
}

function variableValue(path) {
  if (state.drafts.has(path)) return state.drafts.get(path);
  return state.inspection.variables.find((variable) => variable.path === path)?.values[state.look];
}

function draftTraitsFor(name) {
  return traitsFor(name).map((trait) => {
    const values = resolveNode(trait.source, variableValue);
    for (const [key, place] of Object.entries(trait.fieldPlaces)) {
      const draft = placeText(place);
      if (state.fieldDrafts.has(draft)) values[key] = state.fieldDrafts.get(draft);
    }
    return { type: trait.type, values };
  });
}

function drawPreviews() {
  const scenes = [scene("Live", traitsFor)];
  if ((state.drafts.size || state.fieldDrafts.size) && files.hasUnsavedChanges()) scenes.push(scene("Unsaved", draftTraitsFor));
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

async function edit(path, place, literal, value) {
  state.drafts.set(path, value);
  await files.replaceScalar(place, literal);
  drawPreviews();
}

async function editField(place, literal, value) {
  state.fieldDrafts.set(placeText(place), value);
  await files.replaceScalar(place, literal);
  drawPreviews();
}

function forgetDrafts() {
  state.drafts.clear();
  state.fieldDrafts.clear();
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
  if (!files.hasUnsavedChanges()) forgetDrafts();
  draw();
  fleet.refresh();
  await Promise.all([files.refresh(), history.refresh()]);
}

function follow() {
  const events = new EventSource("/v1/events");
  const connection = $("connection");
  events.addEventListener("open", () => { connection.textContent = "live"; connection.className = "pill live"; });
  events.addEventListener("error", () => { connection.textContent = "reconnecting"; connection.className = "pill"; });
  events.addEventListener("spec", (event) => {
    if (event.lastEventId !== state.etag) reload().catch((error) => notify(`Could not reload: ${error.message}`));
  });
}

function showMode() {
  const writable = editable();
  const mode = $("mode");
  mode.textContent = writable ? "editing" : "read-only";
  mode.className = writable ? "pill editing" : "pill readonly";
  $("token").hidden = writable;
  $("unlock").hidden = writable;
  $("lock").hidden = !writable;
  document.body.classList.toggle("readonly", !writable);
  files.show();
  history.showMode();
  draw();
}

function start() {
  history.init({ etag: () => state.etag });
  files.init({ edited: () => { if (!files.hasUnsavedChanges()) forgetDrafts(); drawPreviews(); } });
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    api.setToken($("token").value.trim() || null);
    $("token").value = "";
    notify("");
    showMode();
  });
  $("lock").addEventListener("click", () => { api.setToken(null); showMode(); });
  document.addEventListener("livery-token-refused", () => {
    notify("The push token was refused: the studio is read-only until you enter the right one.");
    showMode();
  });
  $("look").addEventListener("change", () => chooseLook(Number($("look").value)));
  $("search").addEventListener("input", () => {
    state.search = $("search").value;
    drawList($("identifier-list"), state.inspection, { search: state.search, selected: state.selected, choose });
  });
  showMode();
  fleet.refresh();
  reload().catch((error) => notify(`Could not read the daemon: ${error.message}`)).finally(follow);
}

start();
