// What a promotion or a change request would change, as the daemon's preview says it (the
// promotion preview's shape): the files added, changed and removed, and each identifier whose
// resolved traits differ, look by look, before and after.
import { el } from "./dom.js";

/** The files of `preview` as list items: `+ added`, `~ changed`, `- removed`. */
export function fileItems(preview) {
  const file = (change, mark) => (path) => el("li", { class: change, text: `${mark} ${path}`, attrs: { "data-change": change, "data-path": path } });
  return [
    ...preview.added.map(file("added", "+")),
    ...preview.changed.map(file("changed", "~")),
    ...preview.removed.map(file("removed", "-")),
  ];
}

/** One identifier's looks that differ: the theme, its traits before and after. */
export function identifierTable(change) {
  const before = change.before ?? [], after = change.after ?? [];
  const themes = [...new Set([...before, ...after].map((look) => look.theme ?? null))];
  const traits = (looks, theme) => looks.find((look) => (look.theme ?? null) === theme)?.traits ?? null;
  const rows = themes
    .filter((theme) => JSON.stringify(traits(before, theme)) !== JSON.stringify(traits(after, theme)))
    .map((theme) => el("tr", {}, [
      el("th", { text: theme ?? "base" }),
      el("td", { class: "before", text: traits(before, theme)?.join("\n") ?? "(none)" }),
      el("td", { class: "after", text: traits(after, theme)?.join("\n") ?? "(none)" }),
    ]));
  return el("div", { class: "promotion-identifier", attrs: { "data-identifier": change.identifier } }, [
    el("strong", { text: change.identifier }),
    el("table", {}, [el("tr", {}, [el("th", { text: "look" }), el("th", { text: "before" }), el("th", { text: "after" })]), ...rows]),
  ]);
}

/** A refusal as the daemon explains it: the problem's title, then its detail. */
export function refusal(problem) {
  return [problem.title, problem.detail].filter(Boolean).join(": ");
}
