import type { CertificationEvent } from './certification/certification-events';
import type { ConfigurationEvent } from './configuration/configuration-events';
import type { HppPageTemplateEvent } from '../../../page-config/src';

/** Stored partner events. Stored types are never renamed or reshaped; add new ones instead. */

export interface BusinessAddress {
  address_line1?: string;
  address_line2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}

export interface PartnerCreated {
  type: 'PartnerCreated';
  data: {
    partnerId: string;
    name: string;
    contactEmail: string;
    contactName: string;
    dba: string | null;
    partnerType: string;
    commercialModel: string;
    businessAddress: BusinessAddress | null;
    rateLimitTier: string;
    avsDeclinePolicy: string;
    createdAt: string;
  };
}

export interface PartnerConfigChanged {
  type: 'PartnerConfigChanged';
  /** Only the fields that changed are present. */
  data: {
    partnerId: string;
    rateLimitTier?: string;
    avsDeclinePolicy?: string;
    changedAt: string;
  };
}

export interface PartnerCertified {
  type: 'PartnerCertified';
  data: { partnerId: string; certifiedAt: string };
}

export interface PartnerCertificationReset {
  type: 'PartnerCertificationReset';
  data: { partnerId: string; resetAt: string };
}

/**
 * An API key was issued. Only the SHA-256 hash of the full key is recorded, never the key: the
 * secret is random (192 bits), so the hash reveals nothing and the key is shown once, at issue.
 */
export interface ApiKeyIssued {
  type: 'ApiKeyIssued';
  data: {
    partnerId: string;
    keyId: string;
    prefix: string;
    keyHash: string;
    scopes: string[];
    issuedAt: string;
  };
}

/** The key's secret was replaced; the old one answers 401 from this event on. */
export interface ApiKeyRotated {
  type: 'ApiKeyRotated';
  data: { partnerId: string; keyId: string; prefix: string; keyHash: string; rotatedAt: string };
}

export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: { partnerId: string; keyId: string; revokedAt: string };
}

/** Everything on `partner-{id}`: identity and keys, configuration, certification, the HPP template. */
export type PartnerEvent =
  | PartnerCreated
  | PartnerConfigChanged
  | PartnerCertified
  | PartnerCertificationReset
  | ApiKeyIssued
  | ApiKeyRotated
  | ApiKeyRevoked
  | ConfigurationEvent
  | CertificationEvent
  | HppPageTemplateEvent;

const ALL_TYPES: Record<PartnerEvent['type'], true> = {
  PartnerCreated: true,
  PartnerConfigChanged: true,
  PartnerCertified: true,
  PartnerCertificationReset: true,
  ApiKeyIssued: true,
  ApiKeyRotated: true,
  ApiKeyRevoked: true,
  FeatureFlagChanged: true,
  PartnerSettingsChanged: true,
  CertificationFlowStarted: true,
  CertificationCheckEvaluated: true,
  CertificationFactObserved: true,
  CertificationFlowCompleted: true,
  RecertificationRequested: true,
  RecertificationRequestFulfilled: true,
  HppPageTemplateSet: true,
};

/** Every partner event type (the record above makes the compiler check the list is complete). */
export const PARTNER_EVENT_TYPES = Object.keys(ALL_TYPES) as PartnerEvent['type'][];
