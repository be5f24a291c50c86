// Variables as swatches and values with fitting controls, and what each theme overrides.
import { el, placeText } from "./dom.js";
import { parseColor, hexColor, opaqueHex } from "./picker.js";

/** The names Livery accepts for font weights, lightest first. */
export const weightNames = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"];

/** A colour swatch over a checkerboard, so alpha shows; CSS reads Livery's colour literals as they are. */
export function swatch(value) {
  const color = parseColor(value);
  const fill = el("span", { class: "fill" });
  if (color) fill.style.setProperty("background-color", String(value).trim());
  return el("span", { class: color ? "swatch" : "swatch none", attrs: { title: String(value) } }, [fill]);
}

const kindMarks = { number: "123", string: "Aa", insets: "[ ]", size: "w×h", list: "[…]", bool: "y/n", other: "…" };

const isComputed = (source) => typeof source === "string" && (source.startsWith("@") || source.startsWith("~"));
const shown = (value) => (typeof value === "string" ? value : JSON.stringify(value));

/** Where the value of `variable` is written for look `look`: its theme override, else its base. */
function writtenAt(inspection, variable, look) {
  const override = look > 0 && inspection.themes[look - 1].overrides.find((o) => o.path === variable.path);
  return override ? { place: override.place, source: override.source, theme: true } : { place: variable.place, source: variable.source, theme: false };
}

/**
 * Draws every variable for look `look`. `edit(path, place, literal, value)` is called when a
 * control changes a value; controls are disabled unless `editable`.
 */
export function drawVariables(container, inspection, look, { editable, edit, reveal }) {
  const groups = new Map();
  for (const variable of inspection.variables) {
    const group = variable.path.split(".")[0];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(variable);
  }
  const sections = [...groups].map(([group, variables]) => el("div", { class: "group" }, [
    el("h3", { text: group }),
    ...variables.map((variable) => row(inspection, variable, look, { editable, edit, reveal })),
  ]));
  container.replaceChildren(...sections);
}

function row(inspection, variable, look, { editable, edit, reveal }) {
  const value = variable.values[look];
  const written = writtenAt(inspection, variable, look);
  const controls = [];
  const change = (literal, next) => edit(variable.path, written.place, literal, next);
  if (isComputed(written.source)) {
    controls.push(el("code", { class: "computed", text: `= ${written.source}` }));
  } else if (variable.kind === "color") {
    controls.push(...colorControls(value, editable, change));
  } else if (variable.kind === "number") {
    controls.push(numberField(value, editable, change));
  } else if (variable.kind === "string" && weightNames.includes(value)) {
    controls.push(weightMenu(value, editable, change));
  } else if (variable.kind === "string") {
    const input = el("input", { class: "text", attrs: { type: "text", value } });
    input.disabled = !editable;
    input.addEventListener("change", () => change(JSON.stringify(input.value), input.value));
    controls.push(input);
  } else {
    controls.push(el("code", { class: "value", text: shown(value) }));
  }
  return el("div", { class: "variable", attrs: { "data-path": variable.path, "data-kind": variable.kind } }, [
    variable.kind === "color" ? swatch(value) : el("span", { class: "kind", text: kindMarks[variable.kind] ?? "…", attrs: { title: variable.kind } }),
    el("span", { class: "name", text: variable.path }),
    el("span", { class: "controls" }, controls),
    el("button", {
      class: "place", text: placeText(written.place) + (written.theme ? " (theme)" : ""),
      attrs: { type: "button" }, on: { click: () => reveal(written.place) },
    }),
  ]);
}

/** A colour picker, an alpha slider and the value's text; `change(literal, value)` on input. */
export function colorControls(value, editable, change) {
  const color = parseColor(value) ?? { r: 0, g: 0, b: 0, a: 1 };
  const picker = el("input", { class: "picker", attrs: { type: "color", value: opaqueHex(color), "aria-label": "colour" } });
  const alpha = el("input", { class: "alpha", attrs: { type: "range", min: 0, max: 100, step: 1, value: Math.round(color.a * 100), "aria-label": "alpha" } });
  const text = el("code", { class: "value", text: shown(value) });
  const update = () => {
    const picked = parseColor(picker.value);
    if (!picked) return;
    const next = hexColor({ ...picked, a: Number(alpha.value) / 100 });
    text.textContent = next;
    change(JSON.stringify(next), next);
  };
  picker.addEventListener("input", update);
  alpha.addEventListener("input", update);
  picker.disabled = !editable;
  alpha.disabled = !editable;
  return [picker, alpha, text];
}

/**
 * A number field stepping by 1 (by 0.1 for a fraction), kept within `bounds` ({minimum, maximum},
 * as the trait catalog gives them); `change(literal, value)` on change.
 */
export function numberField(value, editable, change, bounds = {}) {
  const attrs = { type: "number", step: Number.isInteger(value) ? 1 : 0.1, value };
  if (bounds.minimum !== undefined) attrs.min = bounds.minimum;
  if (bounds.maximum !== undefined) attrs.max = bounds.maximum;
  const input = el("input", { class: "number", attrs });
  input.disabled = !editable;
  input.addEventListener("change", () => {
    const next = Number(input.value);
    if (input.value !== "" && Number.isFinite(next)) change(String(next), next);
  });
  return input;
}

/** A menu of font weights; `change(literal, value)` on change. */
export function weightMenu(value, editable, change, choices = weightNames) {
  const menu = el("select", { class: "weight", attrs: { "aria-label": "weight" } },
    choices.map((name) => el("option", { text: name, attrs: { value: name } })));
  menu.value = value;
  menu.disabled = !editable;
  menu.addEventListener("change", () => change(JSON.stringify(menu.value), menu.value));
  return menu;
}

/** Lists each theme and what it overrides; `choose(index)` previews theme `index`. */
export function drawThemes(container, inspection, look, { choose, reveal }) {
  if (!inspection.themes.length) {
    container.replaceChildren(el("p", { class: "muted", text: "No themes." }));
    return;
  }
  container.replaceChildren(...inspection.themes.map((theme, index) => el("div", {
    class: look === index + 1 ? "theme active" : "theme", attrs: { "data-theme": theme.name },
  }, [
    el("div", { class: "theme-head" }, [
      el("strong", { text: theme.name }),
      el("button", { text: "Preview", attrs: { type: "button" }, on: { click: () => choose(index + 1) } }),
      el("button", { class: "place", text: placeText(theme.place), attrs: { type: "button" }, on: { click: () => reveal(theme.place) } }),
    ]),
    el("ul", { class: "overrides" }, theme.overrides.map((override) => {
      const value = inspection.variables.find((v) => v.path === override.path)?.values[index + 1] ?? override.source;
      return el("li", {}, [
        parseColor(value) ? swatch(value) : null,
        el("span", { class: "name", text: override.path }),
        el("code", { text: shown(override.source) }),
      ]);
    })),
  ])));
}
