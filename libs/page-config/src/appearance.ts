import { z } from 'zod';
import { forbiddenCharacter } from '../../platform/src/validation/plain-text';
import type { FieldError } from './hpp-page-errors';

/**
 * The `appearance` of an HPP page configuration, spelled as the spec spells it (camelCase inside
 * the snake_case resource). Pure: validation returns the broken rules, resolution fills defaults.
 *
 * XSS guard. The hosted page injects these values into a `<style>` block, an `<img src>` and the
 * page text, so every value is held to a closed grammar here, not escaped later:
 * - colours are only `#rgb`, `#rrggbb` or `#rrggbbaa` (never names, `rgb()`, `url()`, `;` or `}`);
 * - font sizes are integers (px); font families come from a fixed list, each mapped to a CSS stack
 *   written by us (`cssFontFamily`), so partner text never reaches the stylesheet;
 * - the logo is a base64 PNG, JPEG or WebP data URL whose first bytes must be that format (SVG is
 *   refused: it can carry scripts), so its text is `[A-Za-z0-9+/=]` after a fixed header;
 * - `fileName` and `resultScreenLabel` are plain text without controls or `<` `>`; the page still
 *   HTML-escapes them.
 *
 * Writes replace the whole appearance: a body may leave keys out, and `resolveAppearance` fills
 * them from the named preset (`presetKey`, default `default`). The stored events hold the full,
 * resolved appearance, so later changes to the presets never alter a saved configuration.
 */

export const LOGO_MODES = ['none', 'image'] as const;
export type LogoMode = (typeof LOGO_MODES)[number];

const Box = z.strictObject({ bg: z.string(), border: z.string() });

/** The hosted page's look (the spec's camelCase names). */
export const AppearanceSchema = z
  .strictObject({
    presetKey: z.string(),
    logo: z.strictObject({
      mode: z.enum(LOGO_MODES),
      dataUrl: z.string().nullable(),
      fileName: z.string().nullable(),
    }),
    page: Box,
    header: z.strictObject({
      bg: z.string(),
      border: z.string(),
      fontSize: z.number(),
      fontColor: z.string(),
    }),
    panel: Box,
    input: z.strictObject({
      bg: z.string(),
      focusBg: z.string(),
      border: z.string(),
      fontSize: z.number(),
      fontColor: z.string(),
    }),
    button: z.strictObject({ fill: z.string(), border: z.string() }),
    typography: z.strictObject({ fontFamily: z.string(), fontSize: z.number(), fontColor: z.string() }),
    fields: z.strictObject({
      order: z.strictObject({
        invoiceNumber: z.boolean(),
        tax: z.boolean(),
        shipping: z.boolean(),
        total: z.boolean(),
        customerSetsInvoice: z.boolean(),
      }),
      address: z.strictObject({
        billingAddress: z.boolean(),
        shippingAddress: z.boolean(),
        hideAddressPhone: z.boolean(),
      }),
      collectEmail: z.boolean(),
      resultScreenLabel: z.string().meta({
        description: 'Heading of the result screen; the empty string means the page’s own wording.',
      }),
    }),
  })
  .meta({ id: 'HppAppearance' });

export type Appearance = z.infer<typeof AppearanceSchema>;

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** What a write may carry: any key may be left out (filled from the preset). */
export type AppearanceInput = DeepPartial<Appearance>;

export const FONT_SIZE_MIN = 10;
export const FONT_SIZE_MAX = 32;
export const LOGO_MAX_BYTES = 200 * 1024;
/** The longest logo data URL: its header, then the base64 of {@link LOGO_MAX_BYTES}. */
export const LOGO_DATA_URL_MAX_LENGTH = 'data:image/jpeg;base64,'.length + Math.ceil(LOGO_MAX_BYTES / 3) * 4;
export const LOGO_FILE_NAME_MAX_LENGTH = 255;
export const RESULT_SCREEN_LABEL_MAX_LENGTH = 100;

/** The only font families accepted (exact, case-sensitive), each with the CSS stack we emit. */
export const FONT_FAMILY_STACKS: Readonly<Record<string, string>> = Object.freeze({
  'system-ui': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  Arial: 'Arial, Helvetica, sans-serif',
  Helvetica: 'Helvetica, Arial, sans-serif',
  Georgia: 'Georgia, "Times New Roman", serif',
  'Times New Roman': '"Times New Roman", Times, serif',
  Verdana: 'Verdana, Geneva, sans-serif',
  Tahoma: 'Tahoma, Verdana, sans-serif',
  'Trebuchet MS': '"Trebuchet MS", Helvetica, sans-serif',
  'Courier New': '"Courier New", Courier, monospace',
  'sans-serif': 'sans-serif',
  serif: 'serif',
  monospace: 'monospace',
});

export const FONT_FAMILIES: readonly string[] = Object.freeze(Object.keys(FONT_FAMILY_STACKS));

/** The CSS `font-family` value for an accepted family; the system stack for anything else. */
export function cssFontFamily(fontFamily: string): string {
  return hasOwn(FONT_FAMILY_STACKS, fontFamily)
    ? FONT_FAMILY_STACKS[fontFamily]
    : FONT_FAMILY_STACKS['system-ui'];
}

const DEFAULT_FIELDS: Appearance['fields'] = {
  order: { invoiceNumber: false, tax: false, shipping: false, total: true, customerSetsInvoice: false },
  address: { billingAddress: false, shippingAddress: false, hideAddressPhone: false },
  collectEmail: false,
  resultScreenLabel: '',
};

const NO_LOGO: Appearance['logo'] = { mode: 'none', dataUrl: null, fileName: null };

/**
 * Named starting points. Every text colour meets WCAG 2.1 AA (4.5:1) on the background it is
 * drawn on, and input borders meet 3:1 (non-text contrast); the spec file checks it.
 */
export const PRESET_KEYS = ['default', 'dark', 'minimal'] as const;
export type PresetKey = (typeof PRESET_KEYS)[number];

export const PRESETS: Readonly<Record<PresetKey, Appearance>> = deepFreeze({
  default: {
    presetKey: 'default',
    logo: NO_LOGO,
    page: { bg: '#f4f5f7', border: '#d0d5dd' },
    header: { bg: '#ffffff', border: '#d0d5dd', fontSize: 20, fontColor: '#101828' },
    panel: { bg: '#ffffff', border: '#d0d5dd' },
    input: { bg: '#ffffff', focusBg: '#f9fafb', border: '#667085', fontSize: 16, fontColor: '#101828' },
    button: { fill: '#1d4ed8', border: '#1e40af' },
    typography: { fontFamily: 'system-ui', fontSize: 16, fontColor: '#101828' },
    fields: DEFAULT_FIELDS,
  },
  dark: {
    presetKey: 'dark',
    logo: NO_LOGO,
    page: { bg: '#0f172a', border: '#334155' },
    header: { bg: '#111827', border: '#334155', fontSize: 20, fontColor: '#f9fafb' },
    panel: { bg: '#1e293b', border: '#334155' },
    input: { bg: '#0f172a', focusBg: '#172036', border: '#94a3b8', fontSize: 16, fontColor: '#f1f5f9' },
    button: { fill: '#60a5fa', border: '#93c5fd' },
    typography: { fontFamily: 'system-ui', fontSize: 16, fontColor: '#e2e8f0' },
    fields: DEFAULT_FIELDS,
  },
  minimal: {
    presetKey: 'minimal',
    logo: NO_LOGO,
    page: { bg: '#ffffff', border: '#ffffff' },
    header: { bg: '#ffffff', border: '#e5e7eb', fontSize: 18, fontColor: '#111111' },
    panel: { bg: '#ffffff', border: '#e5e7eb' },
    input: { bg: '#ffffff', focusBg: '#ffffff', border: '#767676', fontSize: 16, fontColor: '#111111' },
    button: { fill: '#111111', border: '#111111' },
    typography: { fontFamily: 'Helvetica', fontSize: 15, fontColor: '#111111' },
    fields: DEFAULT_FIELDS,
  },
});

/** The platform default: what a page renders with when neither merchant nor partner set one. */
export const DEFAULT_APPEARANCE: Appearance = PRESETS.default;

// ---------------------------------------------------------------------------------------------
// Schema: one leaf kind per field; validation and resolution both walk it.

type Leaf =
  | 'colour'
  | 'fontSize'
  | 'fontFamily'
  | 'boolean'
  | 'presetKey'
  | 'logoMode'
  | 'logoDataUrl'
  | 'logoFileName'
  | 'label';

type Schema<T> = { readonly [K in keyof T]-?: T[K] extends object ? Schema<T[K]> : Leaf };
type SchemaNode = { readonly [key: string]: SchemaNode | Leaf };

const APPEARANCE_SCHEMA: Schema<Appearance> = {
  presetKey: 'presetKey',
  logo: { mode: 'logoMode', dataUrl: 'logoDataUrl', fileName: 'logoFileName' },
  page: { bg: 'colour', border: 'colour' },
  header: { bg: 'colour', border: 'colour', fontSize: 'fontSize', fontColor: 'colour' },
  panel: { bg: 'colour', border: 'colour' },
  input: { bg: 'colour', focusBg: 'colour', border: 'colour', fontSize: 'fontSize', fontColor: 'colour' },
  button: { fill: 'colour', border: 'colour' },
  typography: { fontFamily: 'fontFamily', fontSize: 'fontSize', fontColor: 'colour' },
  fields: {
    order: {
      invoiceNumber: 'boolean',
      tax: 'boolean',
      shipping: 'boolean',
      total: 'boolean',
      customerSetsInvoice: 'boolean',
    },
    address: { billingAddress: 'boolean', shippingAddress: 'boolean', hideAddressPhone: 'boolean' },
    collectEmail: 'boolean',
    resultScreenLabel: 'label',
  },
};

/** `$` without the `m` flag matches only at the very end: `#fff\n` is refused. */
const COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** One rule for every text field (platform plain-text.ts): controls, separators, bidi. */
const UNSAFE_TEXT = { test: (value: string): boolean => forbiddenCharacter(value) !== null };

const LEAF_CHECKS: Record<Leaf, (value: unknown) => string | null> = {
  colour: (value) =>
    typeof value === 'string' && COLOUR.test(value)
      ? null
      : 'must be a hex colour: #rgb, #rrggbb or #rrggbbaa',
  fontSize: (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= FONT_SIZE_MIN && value <= FONT_SIZE_MAX
      ? null
      : `must be an integer from ${FONT_SIZE_MIN} to ${FONT_SIZE_MAX} (px)`,
  fontFamily: (value) =>
    typeof value === 'string' && hasOwn(FONT_FAMILY_STACKS, value)
      ? null
      : `must be one of ${FONT_FAMILIES.join(', ')}`,
  boolean: (value) => (typeof value === 'boolean' ? null : 'must be a boolean'),
  presetKey: (value) =>
    typeof value === 'string' && hasOwn(PRESETS, value) ? null : `must be one of ${PRESET_KEYS.join(', ')}`,
  logoMode: (value) =>
    (LOGO_MODES as readonly unknown[]).includes(value) ? null : `must be one of ${LOGO_MODES.join(', ')}`,
  logoDataUrl: (value) => (value === null ? null : logoDataUrlError(value)),
  logoFileName: (value) => (value === null ? null : logoFileNameError(value)),
  label: (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if ([...value].length > RESULT_SCREEN_LABEL_MAX_LENGTH) {
      return `must be at most ${RESULT_SCREEN_LABEL_MAX_LENGTH} characters`;
    }
    if (UNSAFE_TEXT.test(value) || /[<>]/.test(value)) {
      return 'must be plain text: no control characters, < or >';
    }
    return null;
  },
};

/**
 * Every broken rule of an appearance as written (any key may be left out; `undefined` counts as
 * left out). Unknown keys are refused at every level. Fields are `appearance.header.fontSize`.
 */
export function validateAppearance(input: unknown, path = 'appearance'): FieldError[] {
  if (input === undefined || input === null) return [{ field: path, message: 'is required' }];
  const errors: FieldError[] = [];
  validateNode(APPEARANCE_SCHEMA, input, path, errors);
  // Presets never carry an image, so mode `image` needs the image in the same body.
  const logo = isPlainObject(input) ? input.logo : undefined;
  if (isPlainObject(logo) && logo.mode === 'image' && (logo.dataUrl === undefined || logo.dataUrl === null)) {
    errors.push({ field: `${path}.logo.dataUrl`, message: 'is required when mode is image' });
  }
  return errors;
}

function validateNode(schema: SchemaNode, value: unknown, path: string, errors: FieldError[]): void {
  if (!isPlainObject(value)) {
    errors.push({ field: path, message: 'must be an object' });
    return;
  }
  for (const key of Object.keys(value)) {
    const field = `${path}.${key.length > 64 ? `${key.slice(0, 64)}…` : key}`;
    if (!hasOwn(schema, key)) {
      errors.push({ field, message: 'is not a known field' });
      continue;
    }
    const child = value[key];
    if (child === undefined) continue;
    const node = schema[key];
    if (typeof node === 'string') {
      const message = LEAF_CHECKS[node](child);
      if (message) errors.push({ field, message });
    } else {
      validateNode(node, child, field, errors);
    }
  }
}

/**
 * The full appearance a write stands for: the preset named by `presetKey` (else `default`),
 * overlaid with every key the input carries; colours lower-cased. Validate first: the input is
 * assumed valid (an invalid one gives an unspecified result, never an exception).
 */
export function resolveAppearance(input: AppearanceInput): Appearance {
  const presetKey =
    input.presetKey !== undefined && hasOwn(PRESETS, input.presetKey) ? input.presetKey : 'default';
  return resolveNode(APPEARANCE_SCHEMA, PRESETS[presetKey as PresetKey], input) as unknown as Appearance;
}

function resolveNode(schema: SchemaNode, base: unknown, input: unknown): Record<string, unknown> {
  const from = isPlainObject(base) ? base : {};
  const over = isPlainObject(input) ? input : {};
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const node = schema[key];
    const given = hasOwn(over, key) ? over[key] : undefined;
    if (typeof node !== 'string') {
      result[key] = resolveNode(node, from[key], given);
    } else {
      const value = given === undefined ? from[key] : given;
      result[key] = node === 'colour' && typeof value === 'string' ? value.toLowerCase() : value;
    }
  }
  return result;
}

/** Structural equality of two appearances (key order does not count: jsonb reorders keys). */
export function sameAppearance(a: Appearance, b: Appearance): boolean {
  return sameJson(a, b);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

// ---------------------------------------------------------------------------------------------
// Logo

const LOGO_SIGNATURES: Readonly<Record<string, { name: string; matches: (bytes: number[]) => boolean }>> = {
  'image/png': {
    name: 'PNG',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  'image/jpeg': { name: 'JPEG', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  // RIFF, four bytes of size, WEBP.
  'image/webp': {
    name: 'WebP',
    matches: (b) =>
      b.length >= 12 &&
      startsWith(b, [0x52, 0x49, 0x46, 0x46]) &&
      startsWith(b.slice(8), [0x57, 0x45, 0x42, 0x50]),
  },
};

const LOGO_HEADER = /^data:(image\/(?:png|jpeg|webp));base64$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Why a logo data URL is refused, or null when it is a PNG, JPEG or WebP of at most 200 KiB. */
export function logoDataUrlError(value: unknown): string | null {
  const expected =
    'must be a data URL data:image/png;base64,…, data:image/jpeg;base64,… or data:image/webp;base64,…';
  if (typeof value !== 'string') return expected;
  const comma = value.indexOf(',');
  const header = comma < 0 ? value.slice(0, 64) : value.slice(0, comma);
  const mime = LOGO_HEADER.exec(header)?.[1];
  if (!mime) {
    return /^data:image\/svg/i.test(header)
      ? 'must be a PNG, JPEG or WebP image; SVG is refused because it can carry scripts'
      : expected;
  }
  const payload = value.slice(comma + 1);
  if (payload.length === 0) return 'must contain the image data';
  const tooLarge = `must decode to at most 200 KiB (${LOGO_MAX_BYTES} bytes)`;
  // Checked on the length first, so an oversized string is not scanned at all.
  if (payload.length > Math.ceil(LOGO_MAX_BYTES / 3) * 4) return tooLarge;
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) {
    return 'must be valid base64 (standard alphabet, padded, no whitespace)';
  }
  if (base64DecodedLength(payload) > LOGO_MAX_BYTES) return tooLarge;
  const signature = LOGO_SIGNATURES[mime];
  if (!signature.matches(decodeBase64Prefix(payload, 12))) {
    return `content is not a ${signature.name} image, as ${mime} declares`;
  }
  return null;
}

/** Bytes a padded base64 text decodes to, from its length alone. */
export function base64DecodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor(base64.length / 4) * 3 - padding;
}

/** The first `count` bytes of a base64 text (fewer if it is shorter or stops being base64). */
export function decodeBase64Prefix(base64: string, count: number): number[] {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of base64) {
    if (bytes.length >= count) break;
    const value = BASE64_ALPHABET.indexOf(char);
    if (value < 0) break; // padding or a foreign character ends the data
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytes;
}

/** Why a logo file name is refused, or null. It is only shown back, never used as a path. */
export function logoFileNameError(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string or null';
  if (value.length === 0) return 'must not be empty; use null for none';
  if (value.length > LOGO_FILE_NAME_MAX_LENGTH) {
    return `must be at most ${LOGO_FILE_NAME_MAX_LENGTH} characters`;
  }
  if (/[/\\]/.test(value) || value === '.' || value === '..') return 'must be a file name, not a path';
  if (UNSAFE_TEXT.test(value)) return 'must not contain control characters';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Contrast (WCAG 2.1), for the presets and for the page's button text

/** The WCAG contrast ratio of two hex colours, 1 to 21; any alpha is ignored (taken as opaque). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on `background` (the spec's button has no text colour). */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}

function relativeLuminance(colour: string): number {
  const [r, g, b] = hexChannels(colour).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function hexChannels(colour: string): [number, number, number] {
  if (!COLOUR.test(colour)) throw new Error(`not a hex colour: ${colour}`);
  const hex = colour.slice(1);
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex.slice(0, 6);
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as [number, number, number];
}

// ---------------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
