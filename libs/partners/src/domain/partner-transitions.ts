import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * A partner is PENDING until an operator marks it CERTIFIED; certification can be reset, which
 * takes the partner back to PENDING (production go-live of merchants requires CERTIFIED).
 */
export const PARTNER_STATES = ['PENDING', 'ACTIVE'] as const;
export type PartnerState = (typeof PARTNER_STATES)[number];

export const CERTIFICATION_STATUSES = ['PENDING', 'CERTIFIED'] as const;
export type CertificationStatus = (typeof CERTIFICATION_STATUSES)[number];

type Rule = { from: readonly CertificationStatus[]; to: CertificationStatus };

export const CERTIFICATION_TRANSITIONS = {
  certify: { from: ['PENDING'], to: 'CERTIFIED' },
  reset_certification: { from: ['CERTIFIED'], to: 'PENDING' },
} satisfies Record<string, Rule>;

export type CertificationAction = keyof typeof CERTIFICATION_TRANSITIONS;

export function nextCertificationStatus(
  action: CertificationAction,
  from: CertificationStatus,
): CertificationStatus {
  const rule: Rule = CERTIFICATION_TRANSITIONS[action];
  if (!rule.from.includes(from)) throw new InvalidStateTransition('partner certification', from, action);
  return rule.to;
}

/** Kinds of partner; the spec shows ISV only, the others are the usual channel partners. */
export const PARTNER_TYPES = ['ISV', 'VAR', 'ISO', 'PAYFAC', 'MARKETPLACE'] as const;
export type PartnerType = (typeof PARTNER_TYPES)[number];

export const RATE_LIMIT_TIERS = ['SANDBOX', 'STANDARD', 'ELEVATED', 'ENTERPRISE'] as const;
export type RateLimitTier = (typeof RATE_LIMIT_TIERS)[number];

export const AVS_DECLINE_POLICIES = [
  'NEVER_DECLINE',
  'DECLINE_ON_NO_MATCH',
  'DECLINE_ON_PARTIAL_MATCH',
] as const;
export type AvsDeclinePolicy = (typeof AVS_DECLINE_POLICIES)[number];
