// The fleet: how many clients have applied the live version, and how many are still on another
// one, from GET /v1/clients (what each client's Livery-Client header last said). Clients report
// a new version on their next request after applying it, so the page asks again every second
// and at once when the version changes.
import * as api from "./api.js";
import { el, repeating, shortTag } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** Asks for the fleet's status now (one request at a time), and again a second after it ends. */
export const refresh = repeating(() => api.clients(), draw, (error) => {
  $("fleet-summary").textContent = `Fleet status unavailable: ${error.message}`;
});

function versionLabel(version) {
  if (version.isCurrent) return `live version ${shortTag(version.etag)}`;
  return version.etag ? `version ${shortTag(version.etag)}` : "nothing applied yet";
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

function draw(status) {
  const fleet = $("fleet");
  fleet.dataset.current = status.current ?? "";
  fleet.dataset.clients = status.clients;
  fleet.dataset.converged = status.converged;
  const lagging = status.clients - status.converged;
  $("fleet-summary").textContent = status.clients === 0
    ? "No client has reported yet: clients appear here with their first request."
    : `${status.converged} of ${plural(status.clients, "client has", "clients have")} applied the live version`
      + (lagging ? `; ${lagging} on another version or none.` : ".")
      + (status.complete === false
        ? ` The daemon dropped ${plural(status.evicted, "client", "clients")} to make room lately: some may be missing.`
        : "");
  const total = Math.max(status.clients, 1);
  const segment = (version) => {
    const part = el("span", {
      class: version.isCurrent ? "segment current" : "segment",
      attrs: { title: `${versionLabel(version)}: ${version.clients}` },
    });
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    part.style.width = `${(100 * version.clients) / total}%`;
    return part;
  };
  $("fleet-bar").replaceChildren(...status.versions.map(segment));
  $("fleet-versions").replaceChildren(...status.versions.map((version) => el("li", {
    class: version.isCurrent ? "fleet-version current" : "fleet-version",
    attrs: { "data-etag": version.etag ?? "", "data-clients": version.clients },
  }, [
    el("span", { class: "label", text: versionLabel(version) }),
    el("span", { class: "track" }, [segment(version)]),
    el("span", { class: "clients", text: version.clients }),
  ])));
  $("fleet-lagging-title").hidden = status.notConverged.length === 0;
  $("fleet-lagging").replaceChildren(...status.notConverged.slice(0, 20).map((client) => el("li", {
    attrs: { "data-instance": client.instance },
    text: `${client.name} ${client.instance}${client.appVersion ? ` (${client.appVersion})` : ""}: `
      + `${client.applied ? shortTag(client.applied) : "nothing applied"}`
      + (client.skipped.length ? `, skipped ${client.skipped.join(", ")}` : ""),
  })));
}
