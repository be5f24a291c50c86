// A line diff (longest common subsequence) for showing what a restore would change, and the
// bundle written out the same way every time so two versions compare line by line.

/** `value` as indented JSON with object keys sorted, so equal bundles give equal lines. */
export function canonicalLines(value) {
  const sorted = (node) => {
    if (Array.isArray(node)) return node.map(sorted);
    if (node && typeof node === "object") {
      return Object.fromEntries(Object.keys(node).sort().map((key) => [key, sorted(node[key])]));
    }
    return node;
  };
  return JSON.stringify(sorted(value), null, 2).split("\n");
}

/** The most line pairs compared; past it `diffLines` answers null rather than stall the page. */
export const maxCells = 4_000_000;

/**
 * The edit from `before` to `after` as [{kind: "same"|"del"|"add", text}], or null when the
 * two are too long to compare (more than `maxCells` line pairs).
 */
export function diffLines(before, after) {
  const n = before.length;
  const m = after.length;
  if ((n + 1) * (m + 1) > maxCells) return null;
  // lengths[i * (m + 1) + j]: the longest common subsequence of before[i...] and after[j...].
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lengths[i * (m + 1) + j] = before[i] === after[j]
        ? lengths[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1]);
    }
  }
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      lines.push({ kind: "same", text: before[i] });
      i += 1;
      j += 1;
    } else if (j < m && (i === n || lengths[i * (m + 1) + j + 1] >= lengths[(i + 1) * (m + 1) + j])) {
      lines.push({ kind: "add", text: after[j] });
      j += 1;
    } else {
      lines.push({ kind: "del", text: before[i] });
      i += 1;
    }
  }
  return lines;
}

/**
 * `lines` with runs of unchanged lines further than `context` from a change folded into one
 * {kind: "skip", count}.
 */
export function foldUnchanged(lines, context = 2) {
  const near = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === "same") return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k += 1) near[k] = true;
  });
  const folded = [];
  for (const [index, line] of lines.entries()) {
    if (near[index] || line.kind !== "same") folded.push(line);
    else if (folded.at(-1)?.kind === "skip") folded.at(-1).count += 1;
    else folded.push({ kind: "skip", count: 1 });
  }
  return folded;
}
