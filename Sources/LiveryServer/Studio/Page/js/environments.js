// The daemon's environments (GET /v1/environments) in a menu in the bar, each with its version
// and rollout. Choosing one loads the page again with it in the URL (`?environment=staging`),
// so that every panel starts afresh on that environment's routes and a reload or a shared link
// shows the same one. A daemon whose one environment is `default` shows no menu: the page looks
// as it did before there were several.
import * as api from "./api.js";
import { el, notify, repeating, shortTag } from "./dom.js";

const $ = (id) => document.getElementById(id);
let hasUnsavedChanges = () => false;
let onList = () => {};

/** Wires the menu; `unsaved()` says whether leaving would drop edits; `listed(list, shown)` runs with each list. */
export function init({ unsaved, listed }) {
  hasUnsavedChanges = unsaved;
  onList = listed;
  $("environment").addEventListener("change", () => {
    const name = $("environment").value;
    if (hasUnsavedChanges() && !window.confirm(`Leave your unsaved changes and show ${name}?`)) {
      $("environment").value = $("environment").dataset.shown ?? "";
      return;
    }
    show(name);
  });
}

/** Loads the page again on the environment `name`. */
function show(name) {
  const url = new URL(location.href);
  url.searchParams.set("environment", name);
  location.assign(url);
}

/**
 * Resolves once the page knows which environment to show, before it reads anything: a daemon
 * without a default environment answers the routes without one with 404, so the page is loaded
 * again on its first environment (and this never resolves).
 */
export async function ready() {
  if (api.environment !== null) return;
  let list;
  try {
    list = await api.environments();
  } catch {
    // Not listed (a daemon that needs the token first): the routes without an environment
    // answer for themselves, and the menu is listed once the token is entered.
    return;
  }
  if (list.defaultEnvironment == null && list.environments.length) {
    show(list.environments[0].name);
    await new Promise(() => {});
  }
}

/** Asks for the environments now, and again every two seconds: the others change unseen. */
export const refresh = repeating(() => api.environments(), draw, () => {}, 2000);

/** What the menu says of an environment: its name, version and running rollout. */
function label(environment) {
  const rollout = environment.rollout?.state === "running" ? ` · rollout ${environment.rollout.percent} %` : "";
  return `${environment.name} · ${shortTag(environment.etag)}${rollout}`;
}

function draw(list) {
  api.setDefaultEnvironment(list.defaultEnvironment);
  const names = list.environments.map((environment) => environment.name);
  if (api.environment === null && list.defaultEnvironment == null && names.length) return show(names[0]);
  const shown = api.environment ?? list.defaultEnvironment;
  if (!names.includes(shown)) {
    notify(`This daemon has no environment '${shown}': choose one of ${names.join(", ")}.`);
  }
  $("environment-picker").hidden = names.length === 1 && names[0] === shown && shown === "default";
  const select = $("environment");
  select.dataset.shown = shown;
  // Options are rewritten in place, not replaced: replacing them would close an open menu.
  const options = [...select.options];
  if (options.map((option) => option.value).join("\n") !== names.join("\n")) {
    select.replaceChildren(...names.map((name) => el("option", { attrs: { value: name } })));
  }
  list.environments.forEach((environment, index) => {
    const option = select.options[index];
    option.textContent = label(environment);
    option.dataset.etag = environment.etag ?? "";
    option.dataset.rollout = environment.rollout?.state === "running" ? environment.rollout.percent : "";
  });
  if (names.includes(shown) && document.activeElement !== select) select.value = shown;
  onList(list, shown);
}
