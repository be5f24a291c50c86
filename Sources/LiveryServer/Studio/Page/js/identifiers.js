// The identifiers: a searchable list, and for the chosen one its resolved traits in the
// previewed look, where each is written, the variables it names, and a small preview (an element
// carrying the identifier, styled by the daemon's stylesheet).
import { el, placeText } from "./dom.js";
import { parseColor } from "./picker.js";
import { swatch, colorControls, numberField, weightMenu } from "./palette.js";

/** Draws the list of identifiers matching `search`; `choose(name)` selects one. */
export function drawList(container, inspection, { search, selected, choose }) {
  const needle = search.trim().toLowerCase();
  const items = inspection.identifiers
    .filter((identifier) => identifier.name.toLowerCase().includes(needle))
    .map((identifier) => el("li", {}, [el("button", {
      class: identifier.name === selected ? "identifier active" : "identifier",
      attrs: { type: "button", "data-identifier": identifier.name },
      on: { click: () => choose(identifier.name) },
    }, [el("span", { text: identifier.name }), el("span", { class: "count", text: identifier.traits[0].length })])]));
  container.replaceChildren(...(items.length ? items : [el("li", { class: "muted", text: "No identifier matches." })]));
}

const shown = (value) => (typeof value === "string" ? value : JSON.stringify(value));

const isComputed = (source) => typeof source === "string" && (source.startsWith("@") || source.startsWith("~"));

/**
 * Controls for a field written as a literal, chosen by the field's kind in the daemon's trait
 * catalog (`field`, from GET /v1/traits): a colour, a number within its bounds, a weight; none
 * for a field the catalog does not describe or a value of another kind.
 */
function fieldControls(field, written, editable, change) {
  if (!field || written === undefined || isComputed(written)) return [];
  switch (field.kind) {
    case "weight":
      return field.choices.includes(written) ? [weightMenu(written, editable, change, field.choices)] : [];
    case "number":
    case "integer":
      return typeof written === "number" ? [numberField(written, editable, change, field)] : [];
    case "color":
      return typeof written === "string" && parseColor(written) ? colorControls(written, editable, change).slice(0, 2) : [];
    default:
      return [];
  }
}

/**
 * Draws `identifier`'s traits for look `look`; `reveal(place)` opens a place in the editor,
 * `editField(place, literal, value)` changes a field written as a literal, and `traits` is the
 * daemon's trait catalog by type name.
 */
export function drawDetail(container, identifier, look, { reveal, editable, editField, traits }) {
  if (!identifier) {
    container.replaceChildren(el("p", { class: "muted", text: "Choose an identifier." }));
    return;
  }
  const sample = el("div", { class: "sample", text: "Aa", attrs: { "data-livery": identifier.name } });
  const rows = identifier.traits[look].map((trait) => el("div", { class: "trait", attrs: { "data-type": trait.type } }, [
    el("div", { class: "trait-head" }, [
      el("strong", { text: trait.type }),
      el("button", {
        class: "place", text: placeText(trait.place), attrs: { type: "button" },
        on: { click: () => reveal(trait.place) },
      }),
      trait.inheritedFrom ? el("span", { class: "muted", text: `from ${trait.inheritedFrom}` }) : null,
    ]),
    el("dl", { attrs: { "data-place": placeText(trait.place) } }, Object.entries(trait.values).flatMap(([key, value]) => [
      el("dt", { text: key }),
      el("dd", {}, [
        typeof value === "string" && parseColor(value) ? swatch(value) : null,
        el("code", { text: shown(value) }),
        shown(trait.source[key]) !== shown(value) ? el("span", { class: "muted", text: ` ← ${shown(trait.source[key])}` }) : null,
        ...fieldControls(traits.get(trait.type)?.fields.find((field) => field.name === key), trait.source[key], editable,
          (literal, next) => editField(trait.fieldPlaces[key], literal, next)),
      ]),
    ])),
    trait.references.length
      ? el("div", { class: "references" }, trait.references.map((path) => el("span", { class: "chip", text: `@${path}` })))
      : null,
  ]));
  container.replaceChildren(el("div", { class: "detail-head" }, [
    sample,
    el("button", { class: "place", text: placeText(identifier.place), attrs: { type: "button" }, on: { click: () => reveal(identifier.place) } }),
  ]), ...rows);
}
