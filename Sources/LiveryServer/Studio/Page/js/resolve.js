// Resolves a trait's fields as written against variable values, so the preview can show an
// unsaved edit: "@path" takes the variable's value, ~alpha and ~mix are evaluated. Saved
// changes come back resolved by the daemon itself.
import { parseColor, hexColor, withAlpha, mix } from "./color.js";

/** `node` (JSON as written) with references and colour functions resolved by `lookup(path)`. */
export function resolveNode(node, lookup) {
  if (typeof node === "string") return resolveString(node, lookup);
  if (Array.isArray(node)) return node.map((item) => resolveNode(item, lookup));
  if (node && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveNode(value, lookup)]));
  }
  return node;
}

function resolveString(text, lookup) {
  if (text.startsWith("@@") || text.startsWith("~~")) return text.slice(1);
  if (text.startsWith("@")) return lookup(text.slice(1));
  if (text.startsWith("~")) {
    const color = evaluate(text, lookup);
    return color ? hexColor(color) : text;
  }
  return text;
}

/** The colour of a colour expression: a colour, a reference, or ~alpha / ~mix of those. */
function evaluate(text, lookup) {
  const source = text.trim();
  if (source.startsWith("@")) return parseColor(String(lookup(source.slice(1))));
  const call = /^~(alpha|mix)\((.*)\)$/s.exec(source);
  if (!call) return parseColor(source);
  const args = splitArguments(call[2]);
  if (call[1] === "alpha" && args.length === 2) {
    const color = evaluate(args[0], lookup);
    return color && withAlpha(color, Number(args[1]));
  }
  if (call[1] === "mix" && args.length === 3) {
    const first = evaluate(args[0], lookup);
    const second = evaluate(args[1], lookup);
    return first && second && mix(first, second, Number(args[2]));
  }
  return null;
}

/** Splits "a, f(b, c), d" at its top-level commas. */
function splitArguments(text) {
  const parts = [];
  let depth = 0;
  let current = "";
  for (const character of text) {
    if (character === "(") depth += 1;
    if (character === ")") depth -= 1;
    if (character === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else {
      current += character;
    }
  }
  parts.push(current.trim());
  return parts;
}
