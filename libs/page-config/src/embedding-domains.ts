import type { FieldError } from './hpp-page-errors';

/**
 * A merchant's iframe embedding allow-list: the sites that may frame its hosted page. Each entry
 * ends up as a source of the page's `Content-Security-Policy: frame-ancestors`, so it is held to
 * a closed grammar and no other text can reach the header:
 *
 * - a host name only: no scheme, port, path, query, fragment, credentials or spaces; ASCII only
 *   (an internationalised name is written in its punycode `xn--` form); stored lower-cased;
 * - labels of 1-63 letters, digits and hyphens, not starting or ending with a hyphen; at most 253
 *   characters; at least two labels; no trailing dot;
 * - one wildcard form: a leading `*.` (`*.example.com` = every subdomain, not `example.com`
 *   itself, as CSP reads it); `*.com` is refused (fewer than two labels after it). Public
 *   suffixes of two labels (`*.co.uk`) cannot be told apart without a suffix list; they pass;
 * - no IP literals (a numeric last label or any colon): framing sites are named sites;
 * - `localhost` (and names under it) only in sandbox, so partners can test from a dev server;
 * - at most 20 distinct entries; duplicates (after lower-casing) are dropped, first one kept,
 *   the partner's order otherwise.
 */
export type HppEnvironment = 'sandbox' | 'production';

export const EMBEDDING_DOMAINS_MAX = 20;
export const DOMAIN_MAX_LENGTH = 253;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The stored form of a valid entry: lower-cased (host names are case-insensitive). */
export function normalizeDomain(domain: string): string {
  return domain.toLowerCase();
}

export type ParsedDomain = { ok: true; domain: string } | { ok: false; message: string };

/** One entry, normalised, or why it is refused. */
export function parseEmbeddingDomain(entry: unknown, environment: HppEnvironment): ParsedDomain {
  const fail = (message: string): ParsedDomain => ({ ok: false, message });
  if (typeof entry !== 'string') return fail('must be a string');
  if (entry.length === 0) return fail('must not be empty');
  if (entry.length > DOMAIN_MAX_LENGTH + 2) return fail(`must be at most ${DOMAIN_MAX_LENGTH} characters`);
  if (/[^\x20-\x7e]/.test(entry)) {
    return [...entry].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)
      ? fail('must not contain control characters')
      : fail('must be ASCII; write an internationalised name in its punycode (xn--) form');
  }
  if (/\s/.test(entry)) return fail('must not contain spaces');
  if (entry.includes('://')) return fail('must be a host name without a scheme (no https://)');
  if (entry.includes('@')) return fail('must be a host name without credentials');
  if (/[/?#]/.test(entry)) return fail('must be a host name without a path, query or fragment');
  if (entry.startsWith('[') || (entry.match(/:/g)?.length ?? 0) > 1) {
    return fail('must be a host name, not an IP address');
  }
  if (entry.includes(':')) return fail('must be a host name without a port');
  const wildcard = entry.startsWith('*.');
  const name = normalizeDomain(wildcard ? entry.slice(2) : entry);
  if (name.includes('*')) return fail('may use a wildcard only as a leading *. label, like *.example.com');
  if (name.endsWith('.')) return fail('must not end with a dot');
  if (name.length > DOMAIN_MAX_LENGTH) return fail(`must be at most ${DOMAIN_MAX_LENGTH} characters`);
  const labels = name.split('.');
  for (const label of labels) {
    if (label.length === 0) return fail('must not contain empty labels');
    if (label.length > 63) return fail('must have labels of at most 63 characters');
    if (!LABEL.test(label)) {
      return fail('must have labels of letters, digits and hyphens, not starting or ending with a hyphen');
    }
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return fail('must be a host name, not an IP address');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    if (environment !== 'sandbox') return fail('may name localhost only in sandbox');
    if (wildcard) return fail('may not use a wildcard under localhost');
    return { ok: true, domain: name };
  }
  if (labels.length < 2) {
    return fail(
      wildcard
        ? 'must put the wildcard in front of a domain of two or more labels, like *.example.com'
        : 'must have at least two labels, like example.com',
    );
  }
  return { ok: true, domain: wildcard ? `*.${name}` : name };
}

/** Each entry's broken rule (`domains[3]`); no limit on the count (see validateEmbeddingDomains). */
export function validateEmbeddingDomainEntries(
  input: unknown,
  path: string,
  environment: HppEnvironment,
): FieldError[] {
  if (!Array.isArray(input)) return [{ field: path, message: 'must be an array of host names' }];
  const errors: FieldError[] = [];
  input.forEach((entry, index) => {
    const parsed = parseEmbeddingDomain(entry, environment);
    if (!parsed.ok) errors.push({ field: `${path}[${index}]`, message: parsed.message });
  });
  return errors;
}

/** A whole allow-list as sent: every entry valid, at most 20 distinct ones. */
export function validateEmbeddingDomains(
  input: unknown,
  path: string,
  environment: HppEnvironment,
): FieldError[] {
  const errors = validateEmbeddingDomainEntries(input, path, environment);
  if (Array.isArray(input) && normalizeEmbeddingDomains(input, environment).length > EMBEDDING_DOMAINS_MAX) {
    errors.push({
      field: path,
      message: `must have at most ${EMBEDDING_DOMAINS_MAX} distinct domains`,
    });
  }
  return errors;
}

/** The stored form: valid entries normalised, first occurrence kept. Validate first. */
export function normalizeEmbeddingDomains(input: readonly unknown[], environment: HppEnvironment): string[] {
  const domains: string[] = [];
  for (const entry of input) {
    const parsed = parseEmbeddingDomain(entry, environment);
    if (parsed.ok && !domains.includes(parsed.domain)) domains.push(parsed.domain);
  }
  return domains;
}

/** `current` followed by the entries of `added` it does not hold yet. */
export function mergeEmbeddingDomains(current: readonly string[], added: readonly string[]): string[] {
  const merged = [...current];
  for (const domain of added) if (!merged.includes(domain)) merged.push(domain);
  return merged;
}

/**
 * The page's `frame-ancestors` directive: the platform itself (`'self'`) plus each allowed domain,
 * `https` only (default port) in production; `http` and `https` on any port in sandbox, for dev
 * servers. An empty list lets no other site frame the page. Entries that do not parse are left
 * out, so whatever reaches the stored list, nothing but a host name reaches the header.
 */
export function frameAncestorsDirective(domains: readonly string[], environment: HppEnvironment): string {
  const sources = ["'self'"];
  for (const entry of domains) {
    const parsed = parseEmbeddingDomain(entry, environment);
    if (!parsed.ok) continue;
    if (environment === 'production') sources.push(`https://${parsed.domain}`);
    else sources.push(`http://${parsed.domain}:*`, `https://${parsed.domain}:*`);
  }
  return `frame-ancestors ${sources.join(' ')}`;
}
