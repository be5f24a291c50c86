// Builds elements. Text from specs only ever goes through textContent or attribute values,
// never through markup, so a spec value "<script>" is shown as text.

/** Creates `tag` with a class, text, attributes, listeners and children. */
export function el(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.class) node.className = options.class;
  if (options.text !== undefined) node.textContent = String(options.text);
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, String(value));
  for (const [event, handler] of Object.entries(options.on ?? {})) node.addEventListener(event, handler);
  for (const child of children) if (child) node.append(child);
  return node;
}

/** `file:line:column`, as the daemon and compilers print places. */
export function placeText(place) {
  return `${place.file}:${place.line}:${place.column}`;
}

/** An ETag as the page shows versions: its first 8 hex digits ("none" without one). */
export function shortTag(etag) {
  return etag ? etag.replaceAll("\"", "").slice(0, 8) : "none";
}

/** Shows a short message (text or an element) at the top of the page (an empty one hides it). */
export function notify(content) {
  const notice = document.getElementById("notice");
  notice.replaceChildren(content);
  notice.hidden = !content;
}

/**
 * A refresh for a panel that asks the daemon again and again: `ask()` now (one request at a
 * time), its answer to `draw`, its error to `failed`, and again `interval` ms after it ends.
 */
export function repeating(ask, draw, failed, interval = 1000) {
  let timer = null;
  let asking = null;
  const refresh = () => {
    clearTimeout(timer);
    if (asking) return asking;
    asking = ask()
      .then(draw, failed)
      .finally(() => {
        asking = null;
        timer = setTimeout(refresh, interval);
      });
    return asking;
  };
  return refresh;
}
