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
