/**
 * Just enough HTML reading for the page specs. The renderer writes every attribute value
 * double-quoted and escaped, so a tag never holds a raw `>` and these patterns read it exactly.
 */
export type Attrs = Record<string, string>;

/** The attributes of every start tag `<name …>`, in document order. */
export function tags(html: string, name: string): Attrs[] {
  const found: Attrs[] = [];
  const tag = new RegExp(`<${name}(\\s[^>]*)?>`, 'g');
  for (const match of html.matchAll(tag)) {
    const attrs: Attrs = {};
    for (const a of (match[1] ?? '').matchAll(/([a-zA-Z][a-zA-Z0-9-]*)(?:="([^"]*)")?/g)) {
      attrs[a[1]] = a[2] ?? '';
    }
    found.push(attrs);
  }
  return found;
}

/** The one element with this id (any tag), or undefined. */
export function byId(html: string, id: string): Attrs | undefined {
  for (const name of ['input', 'select', 'p', 'div', 'h2']) {
    const hit = tags(html, name).find((attrs) => attrs.id === id);
    if (hit) return hit;
  }
  return undefined;
}

/** The inner markup of the first `<name>` element (no nesting of the same tag assumed). */
export function inner(html: string, name: string): string {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(html);
  if (!match) throw new Error(`no <${name}> in the page`);
  return match[1];
}

/** The visible text, tags removed and whitespace collapsed (entities left as they are). */
export function visibleText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Controls a payer fills in (hidden inputs are not labelled). */
export function payerControls(html: string): Attrs[] {
  return [...tags(html, 'input').filter((attrs) => attrs.type !== 'hidden'), ...tags(html, 'select')];
}
