// The daemon's HTTP API, same origin. The key lives in this tab's sessionStorage only and
// travels only in an Authorization header: with every request, since a daemon started with
// --require-read-key needs a key for reads too. What the key may do comes from GET /v1/keys/self.

const tokenKey = "livery.studio.token";

/**
 * The environment the page shows, from its URL (`?environment=staging`), so that a reload or a
 * shared link shows the same one; null for the daemon's default environment, read at the routes
 * without an environment as before there were several. Choosing another loads the page again.
 */
export const environment = new URLSearchParams(location.search).get("environment") || null;

/** The route `path` (a /v1/ path) of the environment the page shows. */
export function route(path) {
  return environment ? `/v1/environments/${encodeURIComponent(environment)}${path.slice("/v1".length)}` : path;
}

/** The push token kept for this tab, or null. */
export function token() {
  return sessionStorage.getItem(tokenKey);
}

/** Keeps `value` as the key for this tab (null forgets it). */
export function setToken(value) {
  if (value) sessionStorage.setItem(tokenKey, value);
  else sessionStorage.removeItem(tokenKey);
  grant = null;
}

/**
 * The name of the environment the page shows, as a key's environments name it: the URL's, else
 * the daemon's default (`GET /v1/environments` names it; `default` until it has).
 */
let defaultEnvironment = "default";
export function setDefaultEnvironment(name) {
  if (name) defaultEnvironment = name;
}
const shownEnvironment = () => environment ?? defaultEnvironment;

/** What the kept key may do (GET /v1/keys/self): `{name, scopes, environments}`, or null. */
let grant = null;

/** Asks the daemon what the kept key may do; a key it does not know may do nothing. */
export async function loadGrant() {
  const response = await fetch("/v1/keys/self", authorized({ cache: "no-store" }));
  grant = response.ok ? await response.json() : null;
  if (response.status === 401 && token()) refuseToken();
  return grant;
}

/** Whether the kept key may do what `scope` allows here (`admin` holds every scope). */
export function can(scope) {
  if (!grant || !token()) return false;
  const scoped = grant.scopes.includes(scope) || grant.scopes.includes("admin");
  return scoped && (grant.environments.includes("*") || grant.environments.includes(shownEnvironment()));
}

/** The kept key's name, or null. */
export const keyName = () => (token() ? grant?.name ?? null : null);

/** Request options with the kept token, if any, in an Authorization header. */
function authorized(options = {}) {
  const headers = { ...(options.headers ?? {}) };
  const current = token();
  if (current) headers.Authorization = `Bearer ${current}`;
  return { ...options, headers };
}

/** A read: fetch with the token. A 401 tells the page that this daemon needs one. */
async function read(path) {
  const response = await fetch(path, authorized({ cache: "no-store" }));
  if (response.status === 401) document.dispatchEvent(new Event("livery-token-needed"));
  return response;
}

async function getJSON(path) {
  const response = await read(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return { etag: response.headers.get("ETag"), body: await response.json() };
}

/** GET /v1/resolved: every look's traits and variables with their places. */
export const resolved = () => getJSON(route("/v1/resolved"));

/** GET /v1/traits: every trait type the daemon knows, with its fields' kinds and bounds. */
export const traits = () => getJSON("/v1/traits").then((r) => r.body.traits);

/**
 * GET /v1/rollout: the last rollout and its cohort's counts; null when none has run. The status
 * says first whether there is one, so the page does not ask for (and log) a 404 every second.
 */
export async function rollout() {
  if (!(await status()).rollout) return null;
  const response = await read(route("/v1/rollout"));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`/v1/rollout: ${response.status}`);
  return response.json();
}

/**
 * POST /v1/rollout with If-Match on the rollout's id: `change` is {action: "set", percent},
 * {action: "abort", reason} or {action: "complete", message}. Answers {status, rollout},
 * {status, change} (a completion held for approval) or {status, problem}.
 */
export async function changeRollout(id, change) {
  const response = await fetch(route("/v1/rollout"), authorized({
    method: "POST",
    headers: { "Content-Type": "application/json", "If-Match": `"${id}"` },
    body: JSON.stringify(change),
  }));
  return written(response, "rollout");
}

/** GET /v1/status. */
export const status = () => getJSON(route("/v1/status")).then((r) => r.body);

/** GET /v1/specs: the files and their ETags. */
export const files = () => getJSON(route("/v1/specs")).then((r) => r.body.files);

const fileURL = (path) => route("/v1/specs/") + path.split("/").map(encodeURIComponent).join("/");

/** GET /v1/specs/{path}: {text, etag}. */
export async function file(path) {
  const response = await read(fileURL(path));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return { text: await response.text(), etag: response.headers.get("ETag") };
}

/**
 * Forgets a token the daemon refused (401) and tells the page (a `livery-token-refused` event),
 * which turns read-only until the right one is entered.
 */
export function refuseToken() {
  setToken(null);
  document.dispatchEvent(new Event("livery-token-refused"));
}

/** GET /v1/clients: the fleet, by the Livery-Client headers of the clients' requests. */
export const clients = () => getJSON(route("/v1/clients")).then((r) => r.body);

/** The body of a refusal: its application/problem+json, or the status line and text. */
async function problemOf(response) {
  const type = response.headers.get("Content-Type") ?? "";
  return type.includes("json") ? await response.json() : { title: response.statusText, detail: await response.text() };
}

/**
 * The answer to a write: {status, problem} when refused; {status, change} when the environment
 * is protected and holds the write as a change request (202); else {status, [name]: body}.
 */
async function written(response, name) {
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  if (response.status === 202) return { status: response.status, change: await response.json() };
  return { status: response.status, [name]: await response.json() };
}

/**
 * GET /v1/history?limit=N: {entries} (newest first), or {problem} when the daemon refuses (its
 * store unreachable, say).
 */
export async function history(limit) {
  const response = await read(route(`/v1/history?limit=${limit}`));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, entries: (await response.json()).entries };
}

/** GET /v1/history/{revision}: {bundle} as it was then, or {problem} (410 once compacted). */
export async function historicBundle(revision) {
  const response = await read(route(`/v1/history/${revision}`));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, bundle: await response.json() };
}

/** GET /v1/spec: the live bundle. */
export const bundle = () => getJSON(route("/v1/spec")).then((r) => r.body);

/**
 * POST /v1/history/{revision}/restore with If-Match `etag` (the bundle it replaces): a new
 * publish of the specs as they were then, validated like every write. Answers {status, result}
 * or {status, problem}.
 */
export async function restore(revision, etag) {
  const headers = {};
  if (etag) headers["If-Match"] = etag;
  const response = await fetch(route(`/v1/history/${revision}/restore`), authorized({ method: "POST", headers }));
  return written(response, "result");
}

/**
 * PUT /v1/specs/{path} with If-Match; `dryRun` validates as the write would and writes nothing.
 * Answers {status, etag, problem, change}: problem is the application/problem+json body of a
 * refusal, change the change request a protected environment holds the write as (202).
 */
export async function put(path, text, etag, { dryRun = false } = {}) {
  const headers = { "Content-Type": "text/plain; charset=utf-8" };
  if (etag) headers["If-Match"] = etag;
  const response = await fetch(
    fileURL(path) + (dryRun ? "?dryRun=true" : ""), authorized({ method: "PUT", headers, body: text }));
  let problem = null;
  if (!response.ok) problem = await problemOf(response);
  const change = response.status === 202 ? await response.json() : null;
  return { status: response.status, etag: response.headers.get("ETag"), problem, change };
}

/**
 * Follows GET /v1/events until the page closes: `onSpec(etag)` for each `spec` event,
 * `onState(live)` as the stream opens and drops. Read with fetch rather than EventSource,
 * which cannot send the token; reconnects after the stream's `retry:` hint, resuming with
 * Last-Event-ID.
 */
export async function follow(onSpec, onState) {
  let lastEventID = null;
  let retry = 2000;
  for (;;) {
    try {
      const headers = lastEventID ? { "Last-Event-ID": lastEventID } : {};
      const response = await fetch(route("/v1/events"), authorized({ cache: "no-store", headers }));
      if (response.status === 401) document.dispatchEvent(new Event("livery-token-needed"));
      if (!response.ok || !response.body) throw new Error(`/v1/events: ${response.status}`);
      onState(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let pending = "";
      let event = { type: "message", id: null };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += value;
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop();
        for (const line of lines) {
          if (line === "") {
            if (event.id !== null) lastEventID = event.id;
            if (event.type === "spec") onSpec(event.id);
            event = { type: "message", id: null };
          } else if (line.startsWith("event:")) event.type = line.slice(6).trim();
          else if (line.startsWith("id:")) event.id = line.slice(3).trim();
          else if (line.startsWith("retry:")) retry = Number(line.slice(6).trim()) || retry;
        }
      }
    } catch {
      // Dropped or refused: said below, then tried again.
    }
    onState(false);
    await new Promise((resolve) => setTimeout(resolve, retry));
  }
}

/**
 * POST /v1/css?dryRun=true: the stylesheet the specs would make with `files` (path → text),
 * for look `theme` alone (null: no theme), validated and written nowhere. Answers {css} or
 * {status, problem}.
 */
export async function styleSheet(files, theme) {
  const headers = { "Content-Type": "application/json" };
  const current = token();
  if (current) headers.Authorization = `Bearer ${current}`;
  const query = new URLSearchParams({ dryRun: "true" });
  if (theme) query.set("theme", theme);
  const response = await fetch(route(`/v1/css?${query}`), { method: "POST", headers, body: JSON.stringify({ files }) });
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { css: await response.text() };
}

/**
 * GET /v1/environments: {defaultEnvironment, environments: [{name, etag, files, errors, rollout}]}.
 */
export const environments = () => getJSON("/v1/environments").then((r) => r.body);

/**
 * GET …/promotions/preview?from=ENV[&revision=N] of the environment the page shows (the target):
 * {preview} (files added, changed, removed; identifiers before and after; the target's ETag
 * compared against), or {status, problem}.
 */
export async function promotionPreview(from, revision) {
  const query = new URLSearchParams({ from });
  if (revision) query.set("revision", revision);
  const response = await read(route(`/v1/promotions/preview?${query}`));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, preview: await response.json() };
}

/**
 * POST …/promotions to the environment the page shows, with If-Match `etag` (the target's ETag
 * the preview showed): `body` is {from, revision, message, rollout}. Answers {status, result} or
 * {status, problem}.
 */
export async function promote(body, etag) {
  const headers = { "Content-Type": "application/json" };
  if (etag) headers["If-Match"] = etag;
  const response = await fetch(route("/v1/promotions"), authorized({
    method: "POST", headers, body: JSON.stringify(body),
  }));
  return written(response, "result");
}

/**
 * GET …/changes: {protection: {approvals}, changes: [...]} (newest first, each pending one with
 * its preview), or {status, problem}.
 */
export async function changes() {
  const response = await read(route("/v1/changes"));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, list: await response.json() };
}

/**
 * POST …/changes/{id}/approve or …/reject with {message}: {status, change} as the review left
 * it, or {status, problem}.
 */
export async function review(id, verdict, message) {
  const response = await fetch(route(`/v1/changes/${id}/${verdict}`), authorized({
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message }),
  }));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, change: await response.json() };
}

/** GET …/schedule: {now, changes} (planned and ended, with their steps). */
export const schedule = () => getJSON(route("/v1/schedule")).then((r) => r.body);

/** DELETE …/schedule/{id}: {status, change} now cancelled, or {status, problem}. */
export async function cancelScheduled(id) {
  const response = await fetch(route(`/v1/schedule/${encodeURIComponent(id)}`), authorized({ method: "DELETE" }));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, change: await response.json() };
}

/**
 * GET …/tuf/status: {signing} (each role's key ids and threshold, its metadata's version and
 * expiry, whether the daemon holds its key), or {status, problem}: 404 without --signing.
 */
export async function signing() {
  const response = await read(route("/v1/tuf/status"));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, signing: await response.json() };
}
