// Reading a colour literal as Livery writes it (#RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b),
// rgba(r, g, b, a)) into a colour picker and an alpha slider, and writing the picked colour back
// as a literal. Nothing here draws a look: the daemon's stylesheet does (preview.js).

/** The colour of `text` as {r, g, b, a} (channels 0-255, a 0-1), or null. */
export function parseColor(text) {
  if (typeof text !== "string") return null;
  const source = text.trim();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(source);
  if (hex) {
    let digits = hex[1];
    if (digits.length <= 4) digits = [...digits].map((d) => d + d).join("");
    const value = (i) => parseInt(digits.slice(i, i + 2), 16);
    return { r: value(0), g: value(2), b: value(4), a: digits.length === 8 ? value(6) / 255 : 1 };
  }
  const fn = /^rgba?\(([^)]*)\)$/i.exec(source);
  if (!fn) return null;
  const parts = fn[1].split(",").map((p) => p.trim());
  if (parts.length < 3 || parts.length > 4) return null;
  const channel = (p) => (p.endsWith("%") ? Math.round((parseFloat(p) / 100) * 255) : Number(p));
  const [r, g, b] = parts.slice(0, 3).map(channel);
  const a = parts[3] === undefined ? 1 : parts[3].endsWith("%") ? parseFloat(parts[3]) / 100 : Number(parts[3]);
  if ([r, g, b, a].some((n) => Number.isNaN(n))) return null;
  return { r, g, b, a };
}

const hex2 = (n) => Math.round(n).toString(16).padStart(2, "0").toUpperCase();

/** #RRGGBB, or #RRGGBBAA when not opaque: how Livery prints a colour. */
export function hexColor(color) {
  const base = `#${hex2(color.r)}${hex2(color.g)}${hex2(color.b)}`;
  return color.a >= 1 ? base : base + hex2(color.a * 255);
}

/** #RRGGBB without alpha, for <input type=color>. */
export function opaqueHex(color) {
  return `#${hex2(color.r)}${hex2(color.g)}${hex2(color.b)}`.toLowerCase();
}
