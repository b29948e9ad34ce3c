import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * The one rule for characters in free text a caller sends (names, e-mails, addresses, file
 * names, reasons, messages, custom-field values): what is stored ends up in HTML pages, CSV
 * exports, PDFs, logs, gateway files and operators' terminals, where an invisible character
 * changes what a reader sees. Refused everywhere:
 *
 * - C0 controls U+0000–U+001F (NUL, BEL, ESC, backspace, CR, LF, TAB, …) and DEL U+007F: terminal
 *   escape sequences, header/log-line splitting, truncation at NUL in C libraries. TAB is refused
 *   too: in a name or a reference it is never meant, it breaks tab-separated and fixed-width
 *   files, and it looks like a space while not comparing equal to one.
 * - C1 controls U+0080–U+009F: CSI (U+009B) is an escape sequence on its own in many terminals.
 * - Bidirectional controls: the embeddings and overrides U+202A–U+202E, the isolates
 *   U+2066–U+2069, the marks U+200E, U+200F and U+061C. They reorder what is displayed
 *   ("Trojan Source"): `invoice‮fdp.exe` reads as `invoiceexe.pdf`.
 * - The line and paragraph separators U+2028 and U+2029: line breaks by another name.
 *
 * Multi-line text (a message to a person, such as a clarification) may hold LF (U+000A), and
 * nothing else from the list: CR and CRLF are refused so a message has one spelling of a line
 * break. Ordinary spaces, accents, scripts and emoji are all fine.
 */
export interface PlainTextOptions {
  /** Allow LF line breaks (messages); single-line otherwise (names, references). */
  multiline?: boolean;
}

// eslint-disable-next-line no-control-regex -- the control characters are exactly what it finds
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
// The same, with LF allowed.
const FORBIDDEN_MULTILINE =
  // eslint-disable-next-line no-control-regex -- the control characters are exactly what it finds
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** The first refused character of `value`, or null when it has none. */
export function forbiddenCharacter(value: string, options: PlainTextOptions = {}): string | null {
  const match = (options.multiline ? FORBIDDEN_MULTILINE : FORBIDDEN).exec(value);
  return match ? match[0] : null;
}

/** `U+202E`: how a refused character is named in a message (never the character itself). */
export function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why `value` is not plain text, or null. The message names the first refused character by code
 * point, so a partner can find it in data that looks fine on screen.
 */
export function plainTextProblem(value: string, options: PlainTextOptions = {}): string | null {
  const char = forbiddenCharacter(value, options);
  if (char === null) return null;
  const allowed = options.multiline ? ' (line breaks are LF only)' : '';
  return `must not contain control or bidirectional formatting characters${allowed}; found ${codePointName(char)}`;
}

/**
 * class-validator form of {@link plainTextProblem} for DTO string fields. Non-strings pass (the
 * field's type decorator reports them), so declare it below `@IsString()`; with `each`, every
 * string of an array is checked.
 */
export function PlainText(options: PlainTextOptions = {}, validation: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'plainText',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || plainTextProblem(value, options) === null,
        defaultMessage: (args) => {
          const value = args?.value;
          const strings = Array.isArray(value) ? value : [value];
          for (const item of strings) {
            if (typeof item !== 'string') continue;
            const problem = plainTextProblem(item, options);
            if (problem) return problem;
          }
          return plainTextProblem('\u0000', options) ?? 'must be plain text';
        },
      },
    });
}
