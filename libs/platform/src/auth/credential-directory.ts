import type { RateLimitTier } from './rate-limiter';

/** What the guard needs to know about a partner key, found by its public prefix. */
export interface PartnerCredential {
  keyId: string;
  prefix: string;
  partnerId: string;
  keyHash: string;
  scopes: string[];
  enabledFeatures: string[];
  ipAllowlist: string[];
  rateLimitTier: RateLimitTier | string;
  apiVersion: string;
}

/**
 * Port: where keys are looked up. The partners context implements it over its read models;
 * the guard does not know about tables.
 */
export abstract class CredentialDirectory {
  abstract findByPrefix(prefix: string): Promise<PartnerCredential | null>;
}

/** What the guard needs to know about a terminal key (`ctk_…`), found by its public prefix. */
export interface TerminalCredential {
  terminalId: string;
  prefix: string;
  partnerId: string;
  keyHash: string;
  /** The partner's enabled feature flags (a terminal route needs `terminals`). */
  enabledFeatures: string[];
  rateLimitTier: RateLimitTier | string;
}

/**
 * Port: where terminal keys are looked up. The terminals context implements it over its read
 * model; where terminals are not released there is none, and every terminal key is unknown.
 */
export abstract class TerminalCredentialDirectory {
  abstract findByPrefix(prefix: string): Promise<TerminalCredential | null>;
}
