// Signed delivery of the environment shown (GET …/tuf/status): whether the daemon serves it as a
// TUF repository (livery serve --signing DIR), and each role's key ids, threshold, and its current
// metadata's version and expiry, marked when expired or near it. Asked again when the version
// changes (app.js) and every 5 s while signing is on: the daemon signs a version a moment after
// publishing it, and re-signs the timestamp with no new version at all. A daemon without
// --signing answers 404, asked again only when the version changes.
import * as api from "./api.js";
import { refusal } from "./comparison.js";
import { el, repeating } from "./dom.js";

const $ = (id) => document.getElementById(id);
const ROLES = ["root", "targets", "snapshot", "timestamp"];
const SECOND = 1000, MINUTE = 60 * SECOND, HOUR = 60 * MINUTE, DAY = 24 * HOUR;
// A key kept offline (root's, targets' with --offline-targets) is a person's to sign with again:
// its metadata is marked a month before it expires.
const OFFLINE_WARNING = 30 * DAY;
let off = false;
let drawn = null;

/**
 * The clock expiries are marked against: the browser's. A test hands its own (a `now()` in ms
 * since the epoch, then `refresh()`), as the browser client takes `now`, so that a mark which
 * shows only near an expiry is seen without waiting for it.
 */
export const clock = { now: () => Date.now() };

const poll = repeating(() => (off ? Promise.resolve(null) : api.signing()), draw, (error) => {
  show("unavailable", `Signing state unavailable: ${error.message}`);
}, 5000);

/** Asks for the signing state now, a daemon that answered "off" too. */
export function refresh() {
  off = false;
  return poll();
}

/** `ms` as a count of its largest unit: "3 days", "1 hour", "12 seconds". */
function span(ms) {
  const units = [["day", DAY], ["hour", HOUR], ["minute", MINUTE], ["second", SECOND]];
  const [name, size] = units.find(([, size]) => Math.abs(ms) >= size) ?? units[units.length - 1];
  const count = Math.floor(Math.abs(ms) / size);
  return `${count} ${name}${count === 1 ? "" : "s"}`;
}

/**
 * "expired", "soon" or "ok" at `now`. The daemon signs a role whose key it holds anew at
 * `renews`, half its life: with a quarter of its life left it has missed that. None: "unsigned".
 */
function expiry(role, now) {
  if (!role.expires) return "unsigned";
  const expires = Date.parse(role.expires);
  const left = expires - now;
  if (left <= 0) return "expired";
  const warning = role.renews ? (expires - Date.parse(role.renews)) / 2 : OFFLINE_WARNING;
  return left < warning ? "soon" : "ok";
}

function expiryCell(role, state, now) {
  if (state === "unsigned") return el("td", { text: "—" });
  const expires = Date.parse(role.expires);
  const relative = state === "expired" ? `${span(now - expires)} ago` : `in ${span(expires - now)}`;
  const marks = { expired: "expired", soon: "expires soon" };
  return el("td", { class: "signing-expiry", attrs: { title: role.expires } }, [
    `${new Date(expires).toLocaleString()} (${relative})`,
    marks[state] ? el("span", { class: "signing-mark", text: marks[state] }) : null,
  ]);
}

function keyCell(name, role) {
  if (role.online) {
    const renews = role.renews ? ` anew at ${new Date(role.renews).toLocaleString()}` : "";
    return el("td", { text: `online: the daemon signs it${renews}` });
  }
  return el("td", { text: name === "targets" ? "offline (--offline-targets): each push brings it signed" : "offline" });
}

function row(name, role, now) {
  const state = expiry(role, now);
  const keys = role.keyids.map((id) => el("code", { class: "keyid", text: `${id.slice(0, 8)}…`, attrs: { title: id } }));
  return el("tr", {
    attrs: {
      "data-role": name, "data-version": role.version ?? "", "data-expires": role.expires ?? "",
      "data-expiry": state, "data-online": role.online,
    },
  }, [
    el("th", { text: name }),
    el("td", { class: "signing-keys" }, keys),
    el("td", { text: `${role.threshold} of ${role.keyids.length}` }),
    el("td", { text: role.version ?? "not signed yet" }),
    expiryCell(role, state, now),
    keyCell(name, role),
  ]);
}

/** The panel with no table: `state` ("off", "unavailable") and a sentence. */
function show(state, text) {
  drawn = null;
  $("signing").dataset.state = state;
  $("signing-summary").textContent = text;
  $("signing-targets").textContent = "";
  $("signing-roles").hidden = true;
  $("signing-rows").replaceChildren();
}

function draw(answer) {
  if (!answer) return;
  if (answer.problem) {
    if (answer.status === 404) {
      off = true;
      show("off", "Signed delivery is off: clients get this environment's versions unsigned. Turn it on with "
        + "`livery signing init DIR` (the keys and 1.root.json, once), then `livery serve … --signing DIR`.");
    } else show("unavailable", `Signing state unavailable: ${refusal(answer.problem)}`);
    return;
  }
  const roles = answer.signing.roles;
  const now = clock.now();
  const names = [...ROLES.filter((name) => roles[name]), ...Object.keys(roles).filter((n) => !ROLES.includes(n)).sort()];
  const rows = names.map((name) => row(name, roles[name], now));
  // Redrawn only when something shown changed, so that a key id's title stays open under the pointer.
  const shown = JSON.stringify([roles, rows.map((r) => r.textContent)]);
  if (shown === drawn) return;
  const panel = $("signing");
  panel.dataset.state = "on";
  const targets = roles.targets;
  panel.dataset.offlineTargets = targets ? !targets.online : "";
  $("signing-summary").textContent = "Signed delivery is on: clients that hold 1.root.json verify each version "
    + "through this environment's metadata below.";
  $("signing-targets").textContent = !targets ? ""
    : targets.online
      ? "The daemon holds the targets, snapshot and timestamp keys and signs each version itself; the root key stays offline."
      : "The targets key is offline (--offline-targets): each push brings its targets signed "
        + "(`livery push --sign-with KEY`); the daemon signs snapshot and timestamp."
        + (targets.version ? "" : " Nothing is signed yet: the first signed push publishes the repository.");
  $("signing-roles").hidden = false;
  $("signing-rows").replaceChildren(...rows);
  drawn = shown;
}
