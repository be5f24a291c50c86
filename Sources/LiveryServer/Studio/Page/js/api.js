// The daemon's HTTP API, same origin. The push token lives in this tab's sessionStorage only
// and travels only in an Authorization header: with every request, since a daemon started
// with --read-token-file needs a token for reads too (and takes the push token for them).

const tokenKey = "livery.studio.token";

/** The push token kept for this tab, or null. */
export function token() {
  return sessionStorage.getItem(tokenKey);
}

/** Keeps `value` as the push token for this tab (null forgets it). */
export function setToken(value) {
  if (value) sessionStorage.setItem(tokenKey, value);
  else sessionStorage.removeItem(tokenKey);
}

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
export const resolved = () => getJSON("/v1/resolved");

/** GET /v1/traits: every trait type the daemon knows, with its fields' kinds and bounds. */
export const traits = () => getJSON("/v1/traits").then((r) => r.body.traits);

/**
 * GET /v1/rollout: the last rollout and its cohort's counts; null when none has run. The status
 * says first whether there is one, so the page does not ask for (and log) a 404 every second.
 */
export async function rollout() {
  if (!(await status()).rollout) return null;
  const response = await read("/v1/rollout");
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`/v1/rollout: ${response.status}`);
  return response.json();
}

/**
 * POST /v1/rollout with If-Match on the rollout's id: `change` is {action: "set", percent},
 * {action: "abort", reason} or {action: "complete", message}. Answers {status, rollout} or
 * {status, problem}.
 */
export async function changeRollout(id, change) {
  const response = await fetch("/v1/rollout", authorized({
    method: "POST",
    headers: { "Content-Type": "application/json", "If-Match": `"${id}"` },
    body: JSON.stringify(change),
  }));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, rollout: await response.json() };
}

/** GET /v1/status. */
export const status = () => getJSON("/v1/status").then((r) => r.body);

/** GET /v1/specs: the files and their ETags. */
export const files = () => getJSON("/v1/specs").then((r) => r.body.files);

const fileURL = (path) => "/v1/specs/" + path.split("/").map(encodeURIComponent).join("/");

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
export const clients = () => getJSON("/v1/clients").then((r) => r.body);

/** The body of a refusal: its application/problem+json, or the status line and text. */
async function problemOf(response) {
  const type = response.headers.get("Content-Type") ?? "";
  return type.includes("json") ? await response.json() : { title: response.statusText, detail: await response.text() };
}

/**
 * GET /v1/history?limit=N: {entries} (newest first), or {problem} when the daemon refuses (its
 * store unreachable, say).
 */
export async function history(limit) {
  const response = await read(`/v1/history?limit=${limit}`);
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, entries: (await response.json()).entries };
}

/** GET /v1/history/{revision}: {bundle} as it was then, or {problem} (410 once compacted). */
export async function historicBundle(revision) {
  const response = await read(`/v1/history/${revision}`);
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, bundle: await response.json() };
}

/** GET /v1/spec: the live bundle. */
export const bundle = () => getJSON("/v1/spec").then((r) => r.body);

/**
 * POST /v1/history/{revision}/restore with If-Match `etag` (the bundle it replaces): a new
 * publish of the specs as they were then, validated like every write. Answers {status, result}
 * or {status, problem}.
 */
export async function restore(revision, etag) {
  const headers = {};
  if (etag) headers["If-Match"] = etag;
  const response = await fetch(`/v1/history/${revision}/restore`, authorized({ method: "POST", headers }));
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { status: response.status, result: await response.json() };
}

/**
 * PUT /v1/specs/{path} with If-Match; `dryRun` validates as the write would and writes nothing.
 * Answers {status, etag, problem}: problem is the application/problem+json body of a refusal.
 */
export async function put(path, text, etag, { dryRun = false } = {}) {
  const headers = { "Content-Type": "text/plain; charset=utf-8" };
  if (etag) headers["If-Match"] = etag;
  const response = await fetch(
    fileURL(path) + (dryRun ? "?dryRun=true" : ""), authorized({ method: "PUT", headers, body: text }));
  let problem = null;
  if (!response.ok) problem = await problemOf(response);
  return { status: response.status, etag: response.headers.get("ETag"), problem };
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
      const response = await fetch("/v1/events", authorized({ cache: "no-store", headers }));
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
  const response = await fetch(`/v1/css?${query}`, { method: "POST", headers, body: JSON.stringify({ files }) });
  if (!response.ok) return { status: response.status, problem: await problemOf(response) };
  return { css: await response.text() };
}
