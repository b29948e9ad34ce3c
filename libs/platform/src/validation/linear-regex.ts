import { RE2JS } from 're2js';

/**
 * Matching text against a pattern someone outside the platform wrote (a partner's custom-field
 * `regEx`), in time linear in the text, whatever the pattern. JavaScript's RegExp backtracks:
 * `\d*\d*\d*\d*x` takes seconds on a few hundred digits and `(a+)+$` never ends, and a payer types
 * the text. RE2 (here its JavaScript port, re2js) runs an automaton instead, so no pattern can
 * hold the event loop; the callers also cap the text's length.
 *
 * The price is the features an automaton cannot run: backreferences (`\1`, `\k<name>`) and
 * lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`). A pattern using them does not compile here.
 *
 * A pattern must also mean the same in both dialects (it is written as JavaScript and also shown
 * to partners' own forms): escapes that JavaScript reads as a plain letter and RE2 as an operator
 * (`\A`, `\z`, `\Q…\E`, `\p{L}`, `\C`, `\a`, `\x{41}`) and POSIX classes (`[[:alpha:]]`) are
 * refused rather than given a meaning the partner did not expect. Pure: no I/O.
 */
export type LinearRegexCompile = { ok: true; regex: RE2JS } | { ok: false; message: string };

const DIALECT_ESCAPES = new Set(['A', 'z', 'Q', 'E', 'p', 'P', 'C', 'a']);
const POSIX_CLASS = /\[:\^?[a-z]+:\]/;

/** Why the pattern's meaning would differ between JavaScript and RE2, or null. */
function dialectProblem(source: string): string | null {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    const next = source[i + 1];
    if (next !== undefined && DIALECT_ESCAPES.has(next)) {
      return `must not use \\${next}: JavaScript reads it as the letter ${next}, other engines as an operator`;
    }
    if (next === 'x' && source[i + 2] === '{') {
      return 'must not use \\x{…}: write \\xHH for a character up to FF, or the character itself';
    }
    i += 1; // the escaped character is not itself an escape
  }
  if (POSIX_CLASS.test(source))
    return 'must not use POSIX classes such as [:alpha:]; use a range such as [A-Za-z]';
  return null;
}

/** The pattern compiled for linear-time matching, or why it cannot be. */
export function compileLinearRegex(source: string): LinearRegexCompile {
  const dialect = dialectProblem(source);
  if (dialect) return { ok: false, message: dialect };
  try {
    return { ok: true, regex: RE2JS.compile(source) };
  } catch {
    return {
      ok: false,
      message:
        'uses a feature that cannot be matched in linear time (backreferences such as \\1, lookahead (?= (?!, lookbehind (?<= (?<!) or an escape such as \\u0041 (write the character itself)',
    };
  }
}

/**
 * Compiled patterns, least recently used dropped first: a merchant's patterns are matched on
 * every payment that carries custom fields, and compiling costs more than matching short text.
 */
const CACHE_SIZE = 500;
const cache = new Map<string, LinearRegexCompile>();

function cached(source: string): LinearRegexCompile {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const compiled = compileLinearRegex(source);
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(source, compiled);
  return compiled;
}

/**
 * Whether the WHOLE of `text` matches `source` (as `^(?:source)$` would), in linear time; null
 * when the pattern cannot be run that way (see {@link compileLinearRegex}). Characters are
 * Unicode code points: `.` is one character, an emoji included.
 */
export function linearFullMatch(source: string, text: string): boolean | null {
  const compiled = cached(source);
  return compiled.ok ? compiled.regex.matches(text) : null;
}
