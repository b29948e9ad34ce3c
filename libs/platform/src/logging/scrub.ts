/**
 * What never reaches a log line, whatever text carries it (a URL, a header, an error message or
 * stack, a database log line): card numbers, bank account and routing numbers, and the secret
 * half of API keys. The rules are written down in docs/logging.md.
 */

import { luhnDigitsValid as luhnValid } from '../banking/luhn';

/**
 * A partner, operator or terminal key anywhere in a text (`csk_<prefix>_<secret>`, `cop_…`,
 * `ctk_…`): the prefix stays, as the spec allows in logs; the secret goes. Keys issued before
 * prefixes were kept free of `_` can have one inside the prefix, hence the 8 characters of the
 * whole URL-safe set.
 */
const KEY_IN_TEXT = /\b(c(?:sk|op|tk)_[A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{16,}/g;

/**
 * Digit groups joined by up to three separators: spaces, tabs, dashes, `+` (a space in a query
 * string) and their percent-encodings (`%20`, `%09`, `%2B`, `%2D`). Which groups form a card
 * number is decided by {@link cardSpans}, not by this expression.
 */
const SEPARATOR = String.raw`(?:[ \t+-]|%20|%09|%2[bBdD])`;
const DIGIT_RUN = new RegExp(String.raw`\d+(?:${SEPARATOR}{1,3}\d+)*`, 'g');
/** A group of digits; a percent-escape is matched only so that its digits (`%20`) are not one. */
const GROUP = /%[0-9A-Fa-f]{2}|\d+/g;

const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;

/**
 * Where card numbers sit in one run of digit groups: from each group, the longest sequence of
 * whole groups holding 13 to 19 digits that passes Luhn. Groups are never split, so a number glued
 * to more digits (`41111111111111119999`) is not card-shaped, while a card followed by its CVC
 * (`4111 1111 1111 1111 123`) still is. At most 19 groups are tried from each start: linear time.
 */
function cardSpans(run: string): [number, number, string][] {
  const groups: { start: number; end: number; digits: string }[] = [];
  for (const m of run.matchAll(GROUP)) {
    if (m[0][0] !== '%') groups.push({ start: m.index, end: m.index + m[0].length, digits: m[0] });
  }
  const spans: [number, number, string][] = [];
  let i = 0;
  while (i < groups.length) {
    let digits = '';
    let found = -1;
    let card = '';
    for (let j = i; j < groups.length; j++) {
      digits += groups[j].digits;
      if (digits.length > MAX_CARD_DIGITS) break;
      if (digits.length >= MIN_CARD_DIGITS && luhnValid(digits)) {
        found = j;
        card = digits;
      }
    }
    if (found === -1) {
      i++;
      continue;
    }
    spans.push([groups[i].start, groups[found].end, card]);
    i = found + 1;
  }
  return spans;
}

/** `[card ****1111]`: the last four digits stay (as on a receipt), enough to tell cards apart. */
function maskCard(card: string): string {
  return `[card ****${card.slice(-4)}]`;
}

/** The text with its card numbers masked, and how many there were. */
function maskCards(text: string): { text: string; found: number } {
  let found = 0;
  const masked = text.replace(DIGIT_RUN, (run) => {
    if (run.replace(/\D/g, '').length < MIN_CARD_DIGITS) return run;
    const spans = cardSpans(run);
    if (spans.length === 0) return run;
    found += spans.length;
    let out = '';
    let at = 0;
    for (const [start, end, card] of spans) {
      out += run.slice(at, start) + maskCard(card);
      at = end;
    }
    return out + run.slice(at);
  });
  return { text: masked, found };
}

/** Percent-escapes decoded where they are valid UTF-8, left as they are elsewhere. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}

/**
 * Card numbers in a text. A URL can hide one behind percent-escapes (`%204111…` glues the `20` to
 * the digits; `%34%31…` spells the digits themselves): when the decoded text shows more card
 * numbers than the text as sent, the decoded text is kept, masked.
 */
export function scrubCardNumbers(text: string): string {
  const raw = maskCards(text);
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return raw.text;
  const decoded = maskCards(percentDecoded(text));
  return decoded.found > raw.found ? decoded.text : raw.text;
}

/**
 * Names under which a bank account (or the card fields) travels: `account_number`, `accountNumber`,
 * `bank-account-no`, `routing_number`, `iban`, `card_number`, `cvc`… A value named so is never
 * logged, whatever it looks like. The short names (`pan`, `iban`, `cvc`, `cvv`) count only as whole
 * words, so `japan: 1` stays.
 */
const LONG_NAME = String.raw`(?:account|acct|routing|card)[_-]?(?:number|num|no)|security[_-]?code`;
const SHORT_NAME = String.raw`(?<![A-Za-z0-9])(?:pan|iban|cvc|cvv2?)`;
const SENSITIVE_NAME = `(?:${LONG_NAME}|${SHORT_NAME})`;

/** Object keys whose string or number value is dropped from a log line entirely. */
export const SENSITIVE_KEY = new RegExp(
  String.raw`(?:${SENSITIVE_NAME}|password|secret|api[_-]?key|authorization|cookie)$`,
  'i',
);

/**
 * `name=value`, `name: value`, `"name":"value"` (also JSON quoted inside a string, `\"`), the
 * percent-encoded `name%3Dvalue`, and a path segment after the name (`/account_number/123`). The
 * value runs over letters, digits, dashes, percent-escapes and spaces before more digits.
 */
const NAMED_VALUE = new RegExp(
  String.raw`(${SENSITIVE_NAME}(?:\\?["'])?\s*(?:=|:|%3[dD]|\/)\s*(?:\\?["'])?)((?:[A-Za-z0-9-]|%[0-9A-Fa-f]{2}|[ +](?=\d))+)`,
  'gi',
);

export function scrubNamedValues(text: string): string {
  return text.replace(NAMED_VALUE, '$1[redacted]');
}

export function scrubKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1_[redacted]');
}

/** Every rule at once, for any text on its way to a log. */
export function scrubText(text: string): string {
  return scrubCardNumbers(scrubNamedValues(scrubKeys(text)));
}

/**
 * A cheap test that a serialized log line cannot need scrubbing: no 13 digits close together, no
 * sensitive name, no key. Percent-escapes of digits are read as the digits, other escapes (`%2D`,
 * JSON's `\t`) as a separator, so the test is one unambiguous pass (no backtracking to speak of).
 * Lines that fail it are parsed and scrubbed field by field.
 */
const MAYBE_CARD = /\d(?:[^A-Za-z0-9"]{0,9}\d){12}/;
const MAYBE_NAMED = new RegExp(`${SENSITIVE_NAME}|password|secret|api[_-]?key|authorization|cookie`, 'i');
const MAYBE_KEY = /c(?:sk|op|tk)_/;

function mayNeedScrubbing(line: string): boolean {
  const digits = line.replace(/%3(\d)/g, '$1').replace(/%[0-9A-Fa-f]{2}|\\[a-z]/g, ' ');
  return MAYBE_CARD.test(digits) || MAYBE_NAMED.test(line) || MAYBE_KEY.test(line);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (typeof value === 'number') {
    const digits = Number.isInteger(value) ? String(Math.abs(value)) : '';
    if (digits.length < MIN_CARD_DIGITS || digits.length > MAX_CARD_DIGITS) return value;
    // Beyond 2^53 the parsed number is no longer the logged one: masked without a check.
    if (!Number.isSafeInteger(value)) return '[redacted number]';
    return luhnValid(digits) ? maskCard(digits) : value;
  }
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const name = scrubText(key);
    out[name] =
      SENSITIVE_KEY.test(key) && (typeof child === 'string' || typeof child === 'number')
        ? '[redacted]'
        : scrubValue(child, depth + 1);
  }
  return out;
}

/**
 * One serialized pino line (JSON and a newline), scrubbed. Parsing keeps the JSON valid however
 * the masked text sits in it (inside a string, or a bare number); a line that is not JSON is
 * scrubbed as text.
 */
export function scrubLogLine(line: string): string {
  if (!mayNeedScrubbing(line)) return line;
  const newline = line.endsWith('\n') ? '\n' : '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return scrubText(line);
  }
  return JSON.stringify(scrubValue(parsed, 0)) + newline;
}
