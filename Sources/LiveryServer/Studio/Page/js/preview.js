// Draws the example card of `livery demo` (screen, card, card.title, card.body, card.badge,
// card.button) as plain elements carrying `data-livery` identifiers. The page holds no rule of
// its own for how a trait looks: the daemon's stylesheet styles the parts, exactly as it styles
// any web page. The live scene is styled by the page's followed stylesheet (GET /v1/css via
// /v1/livery.js); the unsaved scene sits in a shadow root with the stylesheet the daemon renders
// for the unsaved files (POST /v1/css?dryRun=true), so neither stylesheet reaches the other.
import { el } from "./dom.js";

function card() {
  const part = (identifier, tag, text) => el(tag, {
    class: `part ${identifier.replace(".", "-")}`, text,
    attrs: { "data-livery": identifier, "data-identifier": identifier },
  });
  const body = part("card", "div");
  body.append(
    part("card.title", "div", "Livery"),
    part("card.body", "p", "Edit a spec, or push one, and this card restyles at once."),
    el("div", { class: "row" }, [part("card.badge", "span", "live"), part("card.button", "button", "Try it")]));
  const screen = part("screen", "div");
  screen.append(body);
  return screen;
}

/**
 * The example scene named `label` (Live, Unsaved). Without `css` it is styled by the page's own
 * followed stylesheet; with `css` (a stylesheet's text) by that alone, in a shadow root.
 */
export function scene(label, css) {
  const figure = el("figure", { class: "scene", attrs: { "data-scene": label } }, [el("figcaption", { text: label })]);
  if (css === undefined) {
    figure.append(card());
    return figure;
  }
  const stage = el("div", { class: "stage" });
  const root = stage.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [sheet];
  // The page's layout rules (at no specificity) apply inside too.
  root.append(el("link", { attrs: { rel: "stylesheet", href: "/studio/studio.css" } }), card());
  figure.append(stage);
  return figure;
}
