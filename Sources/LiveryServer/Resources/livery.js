// Livery's browser client, served by `livery serve` at /v1/livery.js: an ES module with no
// build step and no dependency.
//
//   import { follow } from "http://127.0.0.1:7878/v1/livery.js";
//   const livery = follow("http://127.0.0.1:7878");
//   livery.setTheme("dark");
//
// It keeps one constructed stylesheet in document.adoptedStyleSheets and replaces its text
// (replaceSync, so a version applies at once and whole) with each version of the spec as CSS,
// fetched from GET /v1/css/{etag}. By default it learns of versions through the version signal,
// as the Swift client's version mode does: GET /v1/version?since={etag}&wait=30s&round=R
// answers at once when the version differs, else when it changes or the wait ends (304 naming
// the next round, sent back so that each round is a new URL and a caching front answers many
// pages from one request). With `mode: "events"` it reads the daemon's event stream instead,
// GET /v1/events, as the Swift client's server-sent-events mode does: one connection, each
// `spec` event's id the new version (read with fetch, not EventSource, so that it sends the same
// headers as every other request). A new connection, after the stream broke or the daemon
// restarted, names the version applied in Last-Event-ID: the daemon then sends the current
// version only if it is another, and a version the page saw but could not apply comes again.
// An unreachable daemon leaves the last good stylesheet in place and is
// asked again after a delay drawn as the Swift client's Backoff draws it: full jitter under a
// ceiling that doubles from 250 ms to 30 s, reset by a success. Each request says what the
// page applied in the Livery-Client header, so the daemon's fleet panel counts browsers.
// During a staged rollout the version signal names the rollout: the page applies the version
// the cohort rule gives its instance, as the Swift client does (Rollout.version(for:)), and
// reportProblem(message) tells the daemon at once that the version it applied misbehaves:
// POST /v1/reports with the Livery-Client header, which a cache in front of the daemon passes
// through, where it passes one page's header per round of the version signal.

const backoffBase = 250;
const backoffCap = 30_000;
/** Time a long-poll may take beyond its wait before it is given up, in milliseconds. */
const longPollMargin = 5_000;
/** Time a stylesheet may take to arrive, in milliseconds. */
const readTimeout = 10_000;
/** Heartbeats of silence after which an event stream counts as dead, as in the Swift client. */
const silentHeartbeats = 3;

/**
 * Follows the daemon at `baseURL` and styles `options.document` (the page's by default).
 *
 * Options: `name` (the program's name in the fleet, "web page" by default), `instance` (this
 * copy, random by default), `version` (the page's own version), `theme` (the theme to start
 * with; leaves `data-livery-theme` as it is when absent), `mode` ("version", the default, or
 * "events"), `wait` (seconds a version signal waits, 30), `heartbeat` (seconds between the event
 * stream's heartbeats, the daemon's 15 by default; three silent ones end the connection), `report` (false: send no Livery-Client header, so the daemon's fleet does not
 * count this page), `token` (the daemon's read token, for a daemon started with
 * `--read-token-file`; sent as `Authorization: Bearer`), `environment` (the daemon's environment
 * to follow, its routes under /v1/environments/{environment}/; the daemon's default one when
 * absent), `onUpdate({ version })` after each
 * stylesheet applied, `onError(error)`
 * after a failed round.
 *
 * Returns `{ setTheme(nameOrNull), stop(), reportProblem(message), version, ready }`: `version`
 * is the ETag of the stylesheet's version applied (null before the first), `ready` a promise of
 * the first one. `stop()` stops following and leaves the last stylesheet applied.
 * `reportProblem(message)` reports that the version applied misbehaves on this page: sent at
 * once (`POST /v1/reports`) and with every later request (`problem`, `note` in Livery-Client),
 * and a rollout whose candidate it is counts it and may abort (`livery serve --abort-when`);
 * false before anything is applied.
 */
export function follow(baseURL, options = {}) {
  const doc = options.document ?? document;
  const base = String(baseURL).replace(/\/+$/, "");
  // The daemon's /v1/ routes, or those of the environment asked for.
  const routes = options.environment
    ? `${base}/v1/environments/${encodeURIComponent(options.environment)}`
    : `${base}/v1`;
  const wait = Math.max(1, Math.round(options.wait ?? 30));
  const mode = options.mode ?? "version";
  if (mode !== "version" && mode !== "events") throw new TypeError(`mode: expected "version" or "events", not ${mode}`);
  const heartbeat = Math.max(0.1, options.heartbeat ?? 15);
  const report = options.report ?? true;
  const identity = {
    name: options.name ?? "web page",
    instance: options.instance ?? randomInstance(),
    version: options.version ?? "",
  };
  const sheet = new CSSStyleSheet();
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  if (options.theme !== undefined) setTheme(options.theme);

  let version = null;
  /** The version reported as misbehaving, and why (reportProblem). */
  let problem = null;
  /** The version signal's `since` while it carries a rollout (sent back instead of `version`). */
  let signal = null;
  let round = null;
  // A front that holds the waits itself (deploy/nginx) ended one without news (408): it may
  // have missed the signal, so the next request asks without waiting, which it passes on.
  let unheard = false;
  let failures = 0;
  let stopped = false;
  let inFlight = null;
  let stream = null;
  let timer = null;
  let resolveReady;
  const ready = new Promise((resolve) => { resolveReady = resolve; });

  function setTheme(name) {
    const root = doc.documentElement;
    if (name === null || name === undefined) root.removeAttribute("data-livery-theme");
    else root.setAttribute("data-livery-theme", String(name));
  }

  /** The headers of every request: what the page applied, and the read token if any. */
  function requestHeaders() {
    const headers = report ? { "Livery-Client": clientHeader(identity, version, problem) } : {};
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    return headers;
  }

  /**
   * POST /v1/reports: the report in the Livery-Client header at once, never awaited. A failure
   * is only logged: every later request carries the same header.
   */
  function sendReport() {
    if (!report) return;
    fetch(`${routes}/reports`, { method: "POST", headers: requestHeaders(), cache: "no-store", credentials: "omit" })
      .then((response) => { if (response.status !== 204) console.warn(`livery: POST /v1/reports answered ${response.status}`); })
      .catch((error) => console.warn("livery: report not sent", error));
  }

  /** GET with the Livery-Client header, given up after `timeout` ms or on stop(). */
  async function get(url, timeout, cache) {
    inFlight = new AbortController();
    const abort = setTimeout(() => inFlight?.abort(), timeout);
    try {
      return await fetch(url, {
        headers: requestHeaders(),
        signal: inFlight.signal,
        cache,
        credentials: "omit",
      });
    } finally {
      clearTimeout(abort);
      inFlight = null;
    }
  }

  /** One round of the version signal; the delay before the next, in milliseconds. */
  async function signalRound() {
    const query = new URLSearchParams();
    if (signal !== null) query.set("since", signal);
    else if (version !== null) query.set("since", urlForm(version));
    const waits = !unheard;
    unheard = false;
    if (waits) query.set("wait", `${wait}s`);
    if (waits && round !== null) query.set("round", round);
    const started = performance.now();
    // "no-store": the browser must neither answer from its own cache nor turn the daemon's 304
    // into a 200; a shared cache in front of the daemon still coalesces pages.
    const response = await get(`${routes}/version?${query}`, wait * 1000 + longPollMargin, "no-store");
    if (response.status === 408) {
      failures = 0;
      unheard = true;
      return performance.now() - started < (wait * 1000) / 2 ? backoffBase : 0;
    }
    if (response.status === 304 && !waits) {
      failures = 0;
      return 0;
    }
    if (response.status === 304) {
      failures = 0;
      const sent = round;
      round = response.headers.get("Livery-Round");
      if (round !== null && round !== sent) return 0;
      return performance.now() - started < (wait * 1000) / 2 ? backoffBase : 0;
    }
    if (response.status !== 200) throw new Error(`GET /v1/version answered ${response.status}`);
    // During a staged rollout the signal names it: the page applies the version the cohort rule
    // gives its instance, and sends `since` back, so that it waits like any client instead of
    // being answered at once.
    const { etag: stable, since, rollout } = await response.json();
    if (typeof stable !== "string") throw new Error("GET /v1/version: expected {\"etag\": \"…\"}");
    const etag = await versionFor(rollout, stable, identity.instance);
    round = null;
    if (etag === version) {
      if ((since ?? null) === signal) return backoffBase;
      signal = since ?? null;
      return 0;
    }
    await apply(etag);
    signal = since ?? null;
    return 0;
  }

  /**
   * One connection to the event stream, read until it ends; the delay before the next (the
   * stream's `retry:` hint). From the second connection on, Last-Event-ID names the version
   * applied (not the last one seen: its stylesheet may not have arrived), and the daemon opens
   * with the current version only if it is another.
   */
  async function followEvents() {
    const connection = new AbortController();
    stream = connection;
    let silence = null;
    const listen = () => {
      clearTimeout(silence);
      silence = setTimeout(() => connection.abort(), heartbeat * 1000 * silentHeartbeats);
    };
    const parser = new EventStreamParser();
    listen();
    try {
      const headers = { ...requestHeaders(), Accept: "text/event-stream" };
      if (version !== null) headers["Last-Event-ID"] = version;
      const response = await fetch(`${routes}/events`, {
        headers,
        signal: connection.signal,
        cache: "no-store",
        credentials: "omit",
      });
      if (response.status !== 200) throw new Error(`GET /v1/events answered ${response.status}`);
      const type = response.headers.get("Content-Type") ?? "";
      if (!type.startsWith("text/event-stream")) throw new Error(`GET /v1/events: expected an event stream, got ${type}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let received = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        listen();
        if (!received) { received = true; failures = 0; }
        for (const event of parser.feed(value)) {
          if (event.type === "spec" && event.id !== "" && event.id !== version) await apply(event.id);
        }
      }
      if (!received) throw new Error("GET /v1/events ended before any data");
    } finally {
      clearTimeout(silence);
      // Also when applying a version failed mid-stream: the connection must not stay open.
      connection.abort();
      if (stream === connection) stream = null;
    }
    return parser.retry ?? backoffBase;
  }

  /** Fetches the stylesheet of `etag` and puts it in place, whole. */
  async function apply(etag) {
    const response = await get(`${routes}/css/${encodeURIComponent(urlForm(etag))}`, readTimeout, "default");
    if (response.status !== 200) throw new Error(`GET /v1/css/{etag} answered ${response.status}`);
    const text = await response.text();
    if (stopped) return;
    sheet.replaceSync(text);
    failures = 0;
    version = etag;
    resolveReady(version);
    options.onUpdate?.({ version });
  }

  async function run() {
    while (!stopped) {
      let delay;
      try {
        delay = mode === "events" ? await followEvents() : await signalRound();
      } catch (error) {
        if (stopped) return;
        failures += 1;
        delay = backoffDelay(failures);
        options.onError?.(error);
      }
      if (stopped) return;
      if (delay > 0) await new Promise((resolve) => { timer = setTimeout(resolve, delay); });
    }
  }
  run();

  return {
    setTheme,
    reportProblem(message) {
      if (version === null) return false;
      problem = { version, note: String(message) };
      sendReport();
      return true;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      inFlight?.abort();
      stream?.abort();
    },
    get version() { return version; },
    ready,
  };
}

/** The delay after `failures` failures in a row: full jitter under min(cap, base × 2^(n-1)). */
function backoffDelay(failures) {
  let ceiling = backoffBase;
  for (let n = 1; n < failures && ceiling < backoffCap; n += 1) ceiling *= 2;
  return Math.random() * Math.min(ceiling, backoffCap);
}

/** An ETag as it appears in URLs: a strong tag without its quotes. */
function urlForm(etag) {
  return etag.length >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.slice(1, -1) : etag;
}

function randomInstance() {
  return globalThis.crypto?.randomUUID?.() ?? `page-${Math.random().toString(36).slice(2)}`;
}

/** The Livery-Client value: an RFC 8941 Dictionary, as the Swift client writes it. */
function clientHeader(identity, applied, problem) {
  const members = [`name=${sfString(identity.name)}`, `instance=${sfString(identity.instance)}`];
  if (identity.version) members.push(`version=${sfString(identity.version)}`);
  if (applied !== null) members.push(`applied=${sfString(applied)}`);
  if (problem !== null) members.push(`problem=${sfString(problem.version)}`, `note=${sfString(problem.note)}`);
  return members.join(", ");
}

/**
 * The version the signal names for `instance`, as the Swift client's Rollout.version(for:):
 * in a running rollout the candidate inside the cohort and the stable version outside it; the
 * candidate once completed; the stable version once aborted, or without a rollout.
 */
async function versionFor(rollout, stable, instance) {
  if (!rollout) return stable;
  if (rollout.state === "completed") return rollout.candidate;
  if (rollout.state !== "running") return rollout.stable;
  const basisPoints = Math.round(rollout.percent * 100);
  return bucket(rollout.id, instance) < basisPoints ? rollout.candidate : rollout.stable;
}

/**
 * The cohort rule: the big-endian unsigned 64-bit integer of the first 8 bytes of
 * SHA-256(UTF-8 "<rollout id>:<instance>"), modulo 10,000. In the client's own code, since
 * browsers give SHA-256 (crypto.subtle) only to secure pages.
 */
export function bucket(id, instance) {
  const digest = sha256(new TextEncoder().encode(`${id}:${instance}`));
  let value = 0n;
  for (const byte of digest.slice(0, 8)) value = (value << 8n) | BigInt(byte);
  return Number(value % 10000n);
}

const roundConstants = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 (FIPS 180-4) of `bytes`, a Uint8Array; the 32-byte digest. */
export function sha256(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotate = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + roundConstants[i] + w[i];
      const t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    hash.set([a, b, c, d, e, f, g, h].map((value, i) => (hash[i] + value) >>> 0));
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  hash.forEach((value, i) => out.setUint32(4 * i, value));
  return digest;
}

/** A structured-field string, or a Display String (RFC 9651) when it is not printable ASCII. */
function sfString(text) {
  let value = String(text);
  // The daemon refuses a field over 128 bytes of UTF-8.
  while (new TextEncoder().encode(value).length > 128) value = value.slice(0, -1);
  if (/^[\x20-\x7e]*$/.test(value)) return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const bytes = new TextEncoder().encode(value);
  let encoded = "";
  for (const byte of bytes) {
    const printable = byte >= 0x20 && byte <= 0x7e && byte !== 0x25 && byte !== 0x22;
    encoded += printable ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, "0")}`;
  }
  return `%"${encoded}"`;
}

/**
 * The event stream format (HTML's "server-sent events"): fields by line, an event at each blank
 * line. Only `event`, `id` and `retry` matter here, so `data` is not kept: a bundle's text
 * never piles up in the page.
 */
class EventStreamParser {
  constructor() {
    this.line = "";
    this.type = "";
    this.id = "";
    this.hasData = false;
    this.afterCR = false;
    this.retry = null;
  }

  /** The events that `text` completes. */
  feed(text) {
    const events = [];
    for (const char of text) {
      if (this.afterCR && char === "\n") { this.afterCR = false; continue; }
      this.afterCR = char === "\r";
      if (char === "\r" || char === "\n") {
        this.field(this.line, events);
        this.line = "";
      } else if (this.line.length < 512 || !this.line.startsWith("data")) {
        this.line += char;  // a data line is cut short: its value is never read
      }
    }
    return events;
  }

  field(line, events) {
    if (line === "") {
      if (this.hasData) events.push({ type: this.type || "message", id: this.id });
      this.type = "";
      this.hasData = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.hasData = true;
    else if (name === "event") this.type = value;
    else if (name === "id" && !value.includes("\0")) this.id = value;
    else if (name === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
  }
}
