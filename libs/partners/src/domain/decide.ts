import { decideCertification, type CertificationCommand } from './certification/certification-decide';
import { FEATURE_FLAG_CERTIFICATION_FEATURES, type FactCode } from './certification/certification-catalog';
import { latestCompletedFlowFeatures } from './certification/certification-queries';
import { enabledFeatures } from './configuration/configuration';
import { decideConfiguration, type ConfigurationCommand } from './configuration/configuration-decide';
import type { BusinessAddress, PartnerEvent } from './partner-events';
import { decideHppTemplate, type HppTemplateCommand } from '../../../page-config/src';
import { evolve, type PartnerStateOrNone } from './partner';
import { ApiKeyNotFound, PartnerAlreadyExists, PartnerNotFound } from './partner-errors';
import {
  nextCertificationStatus,
  type AvsDeclinePolicy,
  type CertificationStatus,
  type RateLimitTier,
} from './partner-transitions';

export type PartnerCommand =
  | {
      type: 'CreatePartner';
      partnerId: string;
      name: string;
      contactEmail: string;
      contactName: string;
      dba?: string | null;
      partnerType?: string;
      businessAddress?: BusinessAddress | null;
      at: Date;
    }
  | {
      type: 'ChangePartnerConfig';
      partnerId: string;
      rateLimitTier?: RateLimitTier;
      avsDeclinePolicy?: AvsDeclinePolicy;
      /**
       * The operator may set or reset (`[]`) the partner's allow-list, e.g. for a partner whose
       * addresses changed; null or omitted leaves it. Same rules as the partner's own change,
       * except that the operator's address is not the partner's, so it is not checked.
       */
      ipAllowlist?: string[] | null;
      at: Date;
    }
  | { type: 'SetCertificationStatus'; partnerId: string; status: CertificationStatus; at: Date }
  /** Key material is generated outside (randomness is I/O); only its prefix and hash come in. */
  | {
      type: 'IssueApiKey';
      partnerId: string;
      keyId: string;
      prefix: string;
      keyHash: string;
      scopes: string[];
      at: Date;
    }
  | { type: 'RotateApiKey'; partnerId: string; keyId: string; prefix: string; keyHash: string; at: Date }
  | { type: 'RevokeApiKey'; partnerId: string; keyId: string; at: Date }
  | Exclude<ConfigurationCommand, { type: 'SetFeatureFlag' }>
  /**
   * A flag change; `recertificationRequestId` is used when enabling the flag asks a certified
   * partner to certify a feature its last certification did not cover.
   */
  | (Extract<ConfigurationCommand, { type: 'SetFeatureFlag' }> & { recertificationRequestId?: string })
  | CertificationCommand
  | HppTemplateCommand;

/**
 * Facts for certification that the partner's own events show (a key issued, a webhook URL set).
 * They are recorded with the event that shows them, in the same append.
 */
const FACTS_OF_EVENT: Partial<Record<PartnerEvent['type'], (event: PartnerEvent) => FactCode | null>> = {
  ApiKeyIssued: () => 'API_KEY_ISSUED',
  PartnerSettingsChanged: (event) =>
    event.type === 'PartnerSettingsChanged' && event.data.webhookUrl ? 'WEBHOOK_URL_CONFIGURED' : null,
};

/** The partner's decisions. Pure: time and ids arrive with the command. */
export function decide(command: PartnerCommand, partner: PartnerStateOrNone): PartnerEvent[] {
  const events = decideCommand(command, partner);
  if (!partner) return events;
  const out: PartnerEvent[] = [];
  let state: PartnerStateOrNone = partner;
  for (const event of events) {
    out.push(event);
    state = evolve(state, event);
    const fact = FACTS_OF_EVENT[event.type]?.(event);
    if (!fact || !state) continue;
    const observed = decideCertification(
      { type: 'ObserveCertificationFact', partnerId: state.id, fact, at: command.at },
      state.certification,
      {
        certificationStatus: state.certificationStatus,
        enabledFeatures: enabledFeatures(state.configuration),
      },
    );
    for (const e of observed) {
      out.push(e);
      state = evolve(state, e);
    }
  }
  return out;
}

function decideCommand(command: PartnerCommand, partner: PartnerStateOrNone): PartnerEvent[] {
  if (command.type === 'CreatePartner') {
    if (partner) throw new PartnerAlreadyExists(command.partnerId);
    return [
      {
        type: 'PartnerCreated',
        data: {
          partnerId: command.partnerId,
          name: command.name,
          contactEmail: command.contactEmail,
          contactName: command.contactName,
          dba: command.dba ?? null,
          partnerType: command.partnerType ?? 'ISV',
          commercialModel: 'RESELLER',
          businessAddress: command.businessAddress ?? null,
          rateLimitTier: 'STANDARD',
          avsDeclinePolicy: 'NEVER_DECLINE',
          createdAt: command.at.toISOString(),
        },
      },
    ];
  }
  if (!partner) throw new PartnerNotFound(command.partnerId);
  const certificationPartner = () => ({
    certificationStatus: partner.certificationStatus,
    enabledFeatures: enabledFeatures(partner.configuration),
  });

  switch (command.type) {
    case 'UpdatePartnerSettings':
      return decideConfiguration(command, partner.configuration, { partnerId: partner.id });
    case 'SetHppTemplate':
      return decideHppTemplate(command, partner.hppTemplate);
    case 'SetFeatureFlag': {
      const events = decideConfiguration(command, partner.configuration, { partnerId: partner.id });
      const feature = FEATURE_FLAG_CERTIFICATION_FEATURES[command.flagName];
      const certified = latestCompletedFlowFeatures(partner.certification);
      // A certified partner switching on a feature its certification did not cover is asked to
      // re-certify for it; the request is fulfilled by the next prepared flow.
      if (
        events.length > 0 &&
        command.enabled &&
        feature &&
        partner.certificationStatus === 'CERTIFIED' &&
        !certified.includes(feature) &&
        command.recertificationRequestId
      ) {
        const request = decideCertification(
          {
            type: 'RequestRecertification',
            partnerId: partner.id,
            requestId: command.recertificationRequestId,
            requestedFeatures: [feature],
            message: `${command.flagName} was enabled; certify ${feature} to use it in production`,
            at: command.at,
          },
          partner.certification,
          certificationPartner(),
        );
        return [...events, ...request];
      }
      return events;
    }
    case 'PrepareCertification':
    case 'ObserveCertificationFact':
    case 'CompleteCertification':
    case 'RequestRecertification':
      return decideCertification(command, partner.certification, certificationPartner());
    case 'ChangePartnerConfig': {
      const changes: { rateLimitTier?: string; avsDeclinePolicy?: string } = {};
      if (command.rateLimitTier && command.rateLimitTier !== partner.rateLimitTier) {
        changes.rateLimitTier = command.rateLimitTier;
      }
      if (command.avsDeclinePolicy && command.avsDeclinePolicy !== partner.avsDeclinePolicy) {
        changes.avsDeclinePolicy = command.avsDeclinePolicy;
      }
      // One append for both: the settings decision refuses bad entries before anything is recorded.
      const settings =
        command.ipAllowlist == null
          ? []
          : decideConfiguration(
              {
                type: 'UpdatePartnerSettings',
                partnerId: command.partnerId,
                ipAllowlist: command.ipAllowlist,
                environment: 'production', // only matters to webhook_url, which is not set here
                at: command.at,
              },
              partner.configuration,
              { partnerId: partner.id },
            );
      // Setting what is already set records nothing: the answer is the current configuration.
      if (Object.keys(changes).length === 0) return settings;
      return [
        {
          type: 'PartnerConfigChanged',
          data: { partnerId: partner.id, ...changes, changedAt: command.at.toISOString() },
        },
        ...settings,
      ];
    }
    case 'SetCertificationStatus': {
      // Certifying also completes the active flow (its open checks waived by the operator), even
      // for a partner already CERTIFIED that was re-certifying for a new feature.
      const completion =
        command.status === 'CERTIFIED'
          ? decideCertification(
              {
                type: 'CompleteCertification',
                partnerId: partner.id,
                by: 'platform-operator',
                at: command.at,
              },
              partner.certification,
              certificationPartner(),
            )
          : [];
      if (command.status === partner.certificationStatus) return completion;
      const action = command.status === 'CERTIFIED' ? 'certify' : 'reset_certification';
      nextCertificationStatus(action, partner.certificationStatus);
      return action === 'certify'
        ? [
            {
              type: 'PartnerCertified',
              data: { partnerId: partner.id, certifiedAt: command.at.toISOString() },
            },
            ...completion,
          ]
        : [
            {
              type: 'PartnerCertificationReset',
              data: { partnerId: partner.id, resetAt: command.at.toISOString() },
            },
          ];
    }
    case 'IssueApiKey': {
      const { keyId, prefix, keyHash, scopes } = command;
      const at = command.at.toISOString();
      return [
        {
          type: 'ApiKeyIssued',
          data: { partnerId: partner.id, keyId, prefix, keyHash, scopes: [...scopes], issuedAt: at },
        },
      ];
    }
    case 'RotateApiKey': {
      const key = partner.apiKeys[command.keyId];
      // A revoked key is gone for its partner too: rotating it reads as not found.
      if (!key || key.revokedAt) throw new ApiKeyNotFound(command.keyId);
      const { keyId, prefix, keyHash } = command;
      return [
        {
          type: 'ApiKeyRotated',
          data: { partnerId: partner.id, keyId, prefix, keyHash, rotatedAt: command.at.toISOString() },
        },
      ];
    }
    case 'RevokeApiKey': {
      const key = partner.apiKeys[command.keyId];
      if (!key || key.revokedAt) throw new ApiKeyNotFound(command.keyId);
      return [
        {
          type: 'ApiKeyRevoked',
          data: { partnerId: partner.id, keyId: key.id, revokedAt: command.at.toISOString() },
        },
      ];
    }
  }
}
