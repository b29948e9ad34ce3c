/**
 * The only ways text reaches the hosted page's markup. Every interpolated value goes through
 * {@link escapeHtml} (text and attribute values alike: one escaper that covers both contexts is
 * harder to misuse than two), and attributes are only ever written by {@link attributes}, which
 * double-quotes and escapes every value.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element text and in a double- or single-quoted attribute value. */
export function escapeHtml(value: string): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/**
 * C0/C1 controls, line separators and bidi embeddings, overrides and isolates: escaping leaves
 * them intact, and a right-to-left override in a merchant name could make the page display a
 * name other than the one stored.
 */
const UNSAFE_DISPLAY = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;

/** Escaped text with the characters that can disguise it removed. */
export function text(value: string): string {
  return escapeHtml(String(value).replace(UNSAFE_DISPLAY, ''));
}

export type AttributeValue = string | number | boolean | null | undefined;

const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * ` name="value"` pairs in the given order: `true` writes a bare attribute, `false`, `null` and
 * `undefined` leave it out. Names come from our code, never from input; a bad one is a bug.
 */
export function attributes(attrs: Readonly<Record<string, AttributeValue>>): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (!ATTRIBUTE_NAME.test(name)) throw new Error(`not an attribute name: ${name}`);
    if (value === undefined || value === null || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

/** An `http:` or `https:` absolute URL, or null: nothing else may become a form action or link. */
export function httpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}
