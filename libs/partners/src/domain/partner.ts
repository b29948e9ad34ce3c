import {
  evolveCertification,
  initialCertificationState,
  type CertificationState,
} from './certification/certification';
import type { CertificationEvent } from './certification/certification-events';
import {
  evolveConfiguration,
  initialConfigurationState,
  type ConfigurationState,
} from './configuration/configuration';
import { isConfigurationEvent } from './configuration/configuration-events';
import type { BusinessAddress, PartnerEvent } from './partner-events';
import {
  evolveHppTemplate,
  initialHppTemplateState,
  type HppTemplateState,
  isHppPageTemplateEvent,
} from '../../../page-config/src';
import type {
  AvsDeclinePolicy,
  CertificationStatus,
  PartnerState,
  RateLimitTier,
} from './partner-transitions';

export interface Partner {
  id: string;
  name: string;
  contactEmail: string;
  contactName: string;
  dba: string | null;
  partnerType: string;
  commercialModel: string;
  businessAddress: BusinessAddress | null;
  state: PartnerState;
  certificationStatus: CertificationStatus;
  rateLimitTier: RateLimitTier;
  avsDeclinePolicy: AvsDeclinePolicy;
  createdAt: string;
  apiKeys: Record<string, ApiKey>;
  /** Self-service settings and feature flags. */
  configuration: ConfigurationState;
  /** Certification flows, observed facts and re-certification requests. */
  certification: CertificationState;
  /** The partner's hosted-payment-page template. */
  hppTemplate: HppTemplateState;
  /** Number of events applied: the `version` field of the API. */
  version: number;
}

export interface ApiKey {
  id: string;
  prefix: string;
  keyHash: string;
  scopes: string[];
  createdAt: string;
  /** When the current secret was issued (creation or last rotation). */
  secretIssuedAt: string;
  revokedAt: string | null;
}

/** Before PartnerCreated the partner does not exist. */
export type PartnerStateOrNone = Partner | null;

export const initialState = (): PartnerStateOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(partner: PartnerStateOrNone, event: PartnerEvent): PartnerStateOrNone {
  if (event.type === 'PartnerCreated') {
    const d = event.data;
    return {
      id: d.partnerId,
      name: d.name,
      contactEmail: d.contactEmail,
      contactName: d.contactName,
      dba: d.dba,
      partnerType: d.partnerType,
      commercialModel: d.commercialModel,
      businessAddress: d.businessAddress,
      state: 'PENDING',
      certificationStatus: 'PENDING',
      rateLimitTier: d.rateLimitTier as RateLimitTier,
      avsDeclinePolicy: d.avsDeclinePolicy as AvsDeclinePolicy,
      createdAt: d.createdAt,
      apiKeys: {},
      configuration: initialConfigurationState(d.createdAt),
      certification: initialCertificationState(),
      hppTemplate: initialHppTemplateState(),
      version: 1,
    };
  }
  if (!partner) return partner;
  const version = partner.version + 1;
  if (isConfigurationEvent(event)) {
    return { ...partner, configuration: evolveConfiguration(partner.configuration, event), version };
  }
  if (isHppPageTemplateEvent(event)) {
    // Partners whose snapshot predates the template slice start from an empty one.
    const template = partner.hppTemplate ?? initialHppTemplateState();
    return { ...partner, hppTemplate: evolveHppTemplate(template, event), version };
  }
  switch (event.type) {
    case 'PartnerConfigChanged':
      return {
        ...partner,
        rateLimitTier: (event.data.rateLimitTier as RateLimitTier | undefined) ?? partner.rateLimitTier,
        avsDeclinePolicy:
          (event.data.avsDeclinePolicy as AvsDeclinePolicy | undefined) ?? partner.avsDeclinePolicy,
        version,
      };
    case 'PartnerCertified':
      return { ...partner, certificationStatus: 'CERTIFIED', state: 'ACTIVE', version };
    case 'PartnerCertificationReset':
      return { ...partner, certificationStatus: 'PENDING', state: 'PENDING', version };
    case 'ApiKeyIssued': {
      const d = event.data;
      const key: ApiKey = {
        id: d.keyId,
        prefix: d.prefix,
        keyHash: d.keyHash,
        scopes: d.scopes,
        createdAt: d.issuedAt,
        secretIssuedAt: d.issuedAt,
        revokedAt: null,
      };
      return { ...partner, apiKeys: { ...partner.apiKeys, [d.keyId]: key }, version };
    }
    case 'ApiKeyRotated': {
      const d = event.data;
      const key = partner.apiKeys[d.keyId];
      if (!key) return { ...partner, version };
      const rotated = { ...key, prefix: d.prefix, keyHash: d.keyHash, secretIssuedAt: d.rotatedAt };
      return { ...partner, apiKeys: { ...partner.apiKeys, [d.keyId]: rotated }, version };
    }
    case 'ApiKeyRevoked': {
      const key = partner.apiKeys[event.data.keyId];
      if (!key) return { ...partner, version };
      const revoked = { ...key, revokedAt: event.data.revokedAt };
      return { ...partner, apiKeys: { ...partner.apiKeys, [key.id]: revoked }, version };
    }
    default:
      return {
        ...partner,
        certification: evolveCertification(partner.certification, event as CertificationEvent),
        version,
      };
  }
}

export const partnerEvolver = { initialState, evolve };
