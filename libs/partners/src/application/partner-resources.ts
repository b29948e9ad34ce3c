import type { AppEnv } from '../../../platform/src/config/config';
import { enabledFeatures } from '../domain/configuration';
import type { ApiKey, Partner } from '../domain/partner';

/** The spec's Partner resource (partner-identity read and the operator's partner read). */
export function toPartnerResource(partner: Partner, env: AppEnv, liveMerchantCount: number) {
  const a = partner.businessAddress;
  return {
    id: partner.id,
    name: partner.name,
    contact_email: partner.contactEmail,
    contact_name: partner.contactName,
    business_address: a
      ? {
          address_line1: a.address_line1 ?? null,
          address_line2: a.address_line2 ?? null,
          city: a.city ?? null,
          state: a.state ?? null,
          zip: a.zip ?? null,
          country: a.country ?? null,
        }
      : null,
    dba: partner.dba,
    partner_type: partner.partnerType,
    state: partner.state,
    commercial_model: partner.commercialModel,
    rate_limit_tier: partner.rateLimitTier,
    // No customer-success manager is assigned through the API; the fields exist for the portal.
    assigned_csm_name: null,
    assigned_csm_email: null,
    live_merchant_count: liveMerchantCount,
    // Each environment is its own deployment: only production keys are live keys.
    has_live_key: env === 'production' && activeKeys(partner).length > 0,
    created_at: partner.createdAt,
    version: partner.version,
  };
}

export function toCapabilities(partner: Partner) {
  return {
    partner_id: partner.id,
    certification_status: partner.certificationStatus,
    enabled_features: enabledFeatures(partner.configuration),
    rate_limit_tier: partner.rateLimitTier,
  };
}

export function activeKeys(partner: Partner): ApiKey[] {
  return Object.values(partner.apiKeys).filter((k) => !k.revokedAt);
}

/** An API key as the operator sees it; `api_key` (the secret) only in the issue/rotate answer. */
export function toApiKeyResource(key: ApiKey, secret?: string) {
  return {
    id: key.id,
    prefix: key.prefix,
    ...(secret === undefined ? {} : { api_key: secret }),
    scopes: key.scopes,
    created_at: key.createdAt,
    secret_issued_at: key.secretIssuedAt,
  };
}
