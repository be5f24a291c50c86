// Draws the example card of `livery demo` (screen, card, card.title, card.body, card.badge,
// card.button) with HTML and CSS from resolved traits. Styles are set through the CSSOM, which
// the page's Content-Security-Policy allows, never through style attributes in markup.
import { el } from "./dom.js";
import { parseColor, cssColor } from "./color.js";

const weights = {
  ultraLight: 100, thin: 200, light: 300, regular: 400, medium: 500,
  semibold: 600, bold: 700, heavy: 800, black: 900,
};

/** The CSS weight of a Livery font weight (a name or 100…900). */
export function cssWeight(weight) {
  return typeof weight === "number" ? weight : weights[weight] ?? 400;
}

/** The names Livery accepts for font weights, lightest first. */
export const weightNames = Object.keys(weights);

function colorOf(value) {
  const color = parseColor(value);
  return color && cssColor(color);
}

function insets(value) {
  if (typeof value === "number") return `${value}px`;
  if (Array.isArray(value) && value.length === 4) {
    const [top, left, bottom, right] = value;
    return `${top}px ${right}px ${bottom}px ${left}px`;
  }
  if (value && typeof value === "object") {
    return `${value.top ?? 0}px ${value.right ?? 0}px ${value.bottom ?? 0}px ${value.left ?? 0}px`;
  }
  return null;
}

function set(node, property, value) {
  if (value !== null && value !== undefined) node.style.setProperty(property, String(value));
}

/** Applies one identifier's resolved traits (`{type, values}`, in order) to `node`. */
export function applyTraits(node, traits) {
  for (const { type, values } of traits) {
    switch (type) {
      case "BackgroundColor": set(node, "background-color", colorOf(values.color)); break;
      case "TextColor": set(node, "color", colorOf(values.color)); break;
      case "CornerRadius": set(node, "border-radius", `${values.radius}px`); break;
      case "Opacity": set(node, "opacity", values.opacity); break;
      case "Hidden": set(node, "visibility", values.hidden ? "hidden" : "visible"); break;
      case "Padding": set(node, "padding", insets(values.insets)); break;
      case "Border":
        if (values.color !== undefined) set(node, "border-color", colorOf(values.color));
        if (values.width !== undefined) set(node, "border-width", `${values.width}px`);
        set(node, "border-style", "solid");
        break;
      case "Font":
        if (values.name !== undefined) set(node, "font-family", `"${String(values.name).replace(/["\\]/g, "")}", system-ui, sans-serif`);
        if (values.size !== undefined) set(node, "font-size", `${values.size}px`);
        if (values.weight !== undefined) set(node, "font-weight", cssWeight(values.weight));
        if (values.color !== undefined) set(node, "color", colorOf(values.color));
        break;
      case "DropShadow": {
        const color = parseColor(values.color ?? "#000000") ?? { r: 0, g: 0, b: 0, a: 1 };
        const offset = Array.isArray(values.offset)
          ? { width: values.offset[0], height: values.offset[1] } : values.offset ?? { width: 0, height: 0 };
        const shadow = { ...color, a: color.a * (values.opacity ?? 1) };
        set(node, "box-shadow", `${offset.width}px ${offset.height}px ${values.radius ?? 0}px ${cssColor(shadow)}`);
        break;
      }
      default: break;
    }
  }
}

/** The example scene, styled by `traitsOf(identifier)`; `label` names it (Live, Unsaved). */
export function scene(label, traitsOf) {
  const part = (identifier, tag, text) => {
    const node = el(tag, { class: `part ${identifier.replace(".", "-")}`, text, attrs: { "data-identifier": identifier } });
    applyTraits(node, traitsOf(identifier));
    return node;
  };
  const card = part("card", "div");
  card.append(
    part("card.title", "div", "Livery"),
    part("card.body", "p", "Edit a spec, or push one, and this card restyles at once."),
    el("div", { class: "row" }, [part("card.badge", "span", "live"), part("card.button", "button", "Try it")]));
  const screen = part("screen", "div");
  screen.append(card);
  return el("figure", { class: "scene", attrs: { "data-scene": label } }, [el("figcaption", { text: label }), screen]);
}
