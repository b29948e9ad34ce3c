import { z } from 'zod';
import type { AppEnv } from '../../../platform/src/config/config';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { PARTNER_SCOPES } from '../../../platform/src/auth/scopes';
import { enabledFeatures } from '../domain/configuration';
import type { ApiKey, Partner } from '../domain/partner';
import {
  CERTIFICATION_STATUSES,
  PARTNER_STATES,
  PARTNER_TYPES,
  RATE_LIMIT_TIERS,
} from '../domain/partner-transitions';

const text = z.string().nullable();

export const PartnerResource = z
  .strictObject({
    id: Uuid,
    name: z.string(),
    contact_email: z.string(),
    contact_name: z.string(),
    business_address: z
      .strictObject({
        address_line1: text,
        address_line2: text,
        city: text,
        state: text,
        zip: text,
        country: text,
      })
      .nullable(),
    dba: text,
    partner_type: z.enum(PARTNER_TYPES),
    state: z.enum(PARTNER_STATES),
    commercial_model: z.string(),
    rate_limit_tier: z.enum(RATE_LIMIT_TIERS),
    assigned_csm_name: text,
    assigned_csm_email: text,
    live_merchant_count: z.int().min(0),
    has_live_key: z.boolean(),
    created_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'Partner' });

export const CapabilitiesResource = z
  .strictObject({
    partner_id: Uuid,
    certification_status: z.enum(CERTIFICATION_STATUSES),
    enabled_features: z.array(z.string()),
    rate_limit_tier: z.enum(RATE_LIMIT_TIERS),
  })
  .meta({ id: 'Capabilities' });

export const ApiKeyResource = z
  .strictObject({
    id: Uuid,
    prefix: z.string().meta({ description: 'The 8 characters after `csk_`: shown in logs, not a secret.' }),
    api_key: z
      .string()
      .optional()
      .meta({ description: 'The whole key: only in the issue and rotate answers, never again.' }),
    scopes: z.array(z.enum(Object.keys(PARTNER_SCOPES) as [string, ...string[]])),
    created_at: Timestamp,
    secret_issued_at: Timestamp,
  })
  .meta({ id: 'ApiKey' });

/** A row of the operator's partner list. */
export const PartnerListItemResource = z
  .strictObject({
    id: Uuid,
    name: z.string(),
    contact_email: z.string(),
    state: z.enum(PARTNER_STATES),
    certification_status: z.enum(CERTIFICATION_STATUSES),
    rate_limit_tier: z.enum(RATE_LIMIT_TIERS),
    created_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'PartnerListItem' });

/** The spec's Partner resource (partner-identity read and the operator's partner read). */
export function toPartnerResource(
  partner: Partner,
  env: AppEnv,
  liveMerchantCount: number,
): z.infer<typeof PartnerResource> {
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
    partner_type: partner.partnerType as z.infer<typeof PartnerResource>['partner_type'],
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

export function toCapabilities(partner: Partner): z.infer<typeof CapabilitiesResource> {
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
export function toApiKeyResource(key: ApiKey, secret?: string): z.infer<typeof ApiKeyResource> {
  return {
    id: key.id,
    prefix: key.prefix,
    ...(secret === undefined ? {} : { api_key: secret }),
    scopes: key.scopes,
    created_at: key.createdAt,
    secret_issued_at: key.secretIssuedAt,
  };
}
