import { forbiddenCharacter } from '../../../../platform/src/validation/plain-text';
import type { FieldError } from './configuration-errors';
import {
  formatIpRange,
  parseCidr,
  parseIpAddress,
  rangeContains,
  unmapIpv4,
} from '../../../../platform/src/net/ip-address';
import { specialAddressKind, type AddressKind } from '../../../../platform/src/net/special-addresses';

/**
 * Validation of the partner's self-service settings (`PUT /config/partners/{partnerId}`). Pure:
 * each function returns the broken rules as `{field, message}`, empty when the value is good.
 */
export type Environment = 'sandbox' | 'production';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const IP_ALLOWLIST_MAX_ENTRIES = 50;
export const ACCEPTED_METHODS = ['credit_card', 'debit_card', 'ach'] as const;
export type AcceptedMethod = (typeof ACCEPTED_METHODS)[number];

const KIND_WORDS: Record<AddressKind, string> = {
  unspecified: 'an unspecified',
  loopback: 'a loopback',
  private: 'a private',
  shared: 'a shared (carrier-grade NAT)',
  link_local: 'a link-local or metadata',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

// Spaces, controls and DEL: the WHATWG parser would silently strip or drop some of them.
const hasUnsafeCharacter = (text: string): boolean =>
  [...text].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f);
const AUTHORITY = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#\\]*)/;

/** `webhook_url`: the empty string (clear) is valid; anything else must be a receivable URL. */
export function validateWebhookUrl(url: string, environment: Environment): FieldError[] {
  const field = 'webhook_url';
  const fail = (message: string): FieldError[] => [{ field, message }];
  if (url === '') return [];
  if (url.length > WEBHOOK_URL_MAX_LENGTH) {
    return fail(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  if (hasUnsafeCharacter(url) || forbiddenCharacter(url) !== null) {
    return fail('must not contain spaces, control or bidirectional formatting characters');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return fail('must be an absolute http or https URL');
  }
  const errors: FieldError[] = [];
  if (environment === 'production' && parsed.protocol !== 'https:') {
    errors.push({ field, message: 'must use https in production' });
  }
  // `http://@host` has empty credentials the parser drops; the raw `@` is refused all the same.
  if (parsed.username || parsed.password || AUTHORITY.exec(url)?.[1].includes('@')) {
    errors.push({ field, message: 'must not contain credentials; the payload is signed instead' });
  }
  if (url.includes('#')) errors.push({ field, message: 'must not contain a fragment' });
  const hostError = webhookHostError(parsed.hostname, environment);
  if (hostError) errors.push({ field, message: hostError });
  return errors;
}

function webhookHostError(hostname: string, environment: Environment): string | null {
  // The parser has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1.
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const address = parseIpAddress(literal);
  if (address) {
    const special = specialAddressKind(address);
    if (!special || (environment === 'sandbox' && special.sandbox)) return null;
    return `must not point at ${KIND_WORDS[special.kind]} address`;
  }
  const name = hostname.replace(/\.$/, '');
  // RFC 6761: localhost and every name under it resolve to loopback without asking DNS.
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return environment === 'sandbox' ? null : 'must not point at a loopback address';
  }
  // A single-label name resolves through the resolver's search domains, i.e. inside our network.
  if (environment === 'production' && !name.includes('.')) {
    return 'must name a fully qualified host';
  }
  return null;
}

/** Each entry parsed and normalised, or the reason it is refused. */
export function parseAllowlistEntry(
  entry: unknown,
): { ok: true; cidr: string } | { ok: false; message: string } {
  if (typeof entry !== 'string') return { ok: false, message: 'must be a string' };
  const parsed = parseCidr(entry);
  return parsed.ok ? { ok: true, cidr: formatIpRange(parsed.range) } : parsed;
}

/** `ip_allowlist`: at most 50 entries as sent, each a CIDR range or a bare address. */
export function validateIpAllowlist(entries: readonly unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  if (entries.length > IP_ALLOWLIST_MAX_ENTRIES) {
    errors.push({ field: 'ip_allowlist', message: `must have at most ${IP_ALLOWLIST_MAX_ENTRIES} entries` });
  }
  entries.forEach((entry, index) => {
    const parsed = parseAllowlistEntry(entry);
    if (!parsed.ok) errors.push({ field: `ip_allowlist[${index}]`, message: parsed.message });
  });
  return errors;
}

/**
 * The stored form: canonical CIDR text (`10.0.0.7/32`, `2001:db8::/32`), first occurrence kept,
 * the partner's order otherwise. Invalid entries are dropped; validate first.
 */
export function normalizeIpAllowlist(entries: readonly unknown[]): string[] {
  const normalized: string[] = [];
  for (const entry of entries) {
    const parsed = parseAllowlistEntry(entry);
    if (parsed.ok && !normalized.includes(parsed.cidr)) normalized.push(parsed.cidr);
  }
  return normalized;
}

/**
 * Whether a (normalised) allow-list admits `address`, the way the request guard matches it: an
 * empty list admits everyone; an IPv4 client seen through an IPv6 socket (`::ffff:a.b.c.d`) is
 * that IPv4 client; brackets and a zone id are not part of the address. An address that does not
 * parse is admitted by nothing.
 */
export function allowlistAdmits(entries: readonly string[], address: string): boolean {
  if (entries.length === 0) return true;
  let text = address.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const parsed = parseIpAddress(text);
  if (!parsed) return false;
  const caller = unmapIpv4(parsed);
  return entries.some((entry) => {
    const range = parseCidr(entry);
    return range.ok && rangeContains(range.range, caller);
  });
}

/** `hpp_settings.accepted_methods`: a non-empty set of known methods, each named once. */
export function validateAcceptedMethods(methods: readonly unknown[]): FieldError[] {
  const field = 'hpp_settings.accepted_methods';
  if (methods.length === 0) return [{ field, message: 'must name at least one payment method' }];
  const errors: FieldError[] = [];
  methods.forEach((method, index) => {
    if (!(ACCEPTED_METHODS as readonly unknown[]).includes(method)) {
      errors.push({ field: `${field}[${index}]`, message: `must be one of ${ACCEPTED_METHODS.join(', ')}` });
    } else if (methods.indexOf(method) !== index) {
      errors.push({ field: `${field}[${index}]`, message: 'is listed more than once' });
    }
  });
  return errors;
}

/** A set, so stored in one canonical order: a reordering is not a change. */
export function normalizeAcceptedMethods(methods: readonly string[]): string[] {
  return ACCEPTED_METHODS.filter((method) => methods.includes(method));
}

export interface PartnerSettingsInput {
  webhookUrl?: string | null;
  ipAllowlist?: readonly unknown[] | null;
  acceptedMethods?: readonly unknown[] | null;
  environment: Environment;
}

/** Every broken rule of a settings update; null and omitted fields are not checked (unchanged). */
export function validatePartnerSettings(input: PartnerSettingsInput): FieldError[] {
  return [
    ...(input.webhookUrl == null ? [] : validateWebhookUrl(input.webhookUrl, input.environment)),
    ...(input.ipAllowlist == null ? [] : validateIpAllowlist(input.ipAllowlist)),
    ...(input.acceptedMethods == null ? [] : validateAcceptedMethods(input.acceptedMethods)),
  ];
}
