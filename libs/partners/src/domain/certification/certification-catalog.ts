/**
 * What certification asks of a partner, as data: the steps in the order a partner walks them, and
 * the checks of each step. A flow copies what it needs at its start (see CertificationFlowStarted),
 * so changing this catalog in a release never changes a flow already under way.
 */

/** Certification features: the product areas a flow certifies. Every partner takes cards. */
export const CERTIFICATION_FEATURES = ['CARD', 'ACH', 'HPP', 'TERMINAL'] as const;
export type CertificationFeature = (typeof CERTIFICATION_FEATURES)[number];

/** The feature flag that brings each feature into certification; CARD needs no flag. */
export const FEATURE_FLAG_CERTIFICATION_FEATURES: Readonly<Record<string, CertificationFeature>> = {
  ach_payments: 'ACH',
  hosted_payment_pages: 'HPP',
  terminals: 'TERMINAL',
};

/** The certification features of a partner's enabled flags, in catalog order; unknown flags certify nothing. */
export function certificationFeaturesFor(enabledFeatureFlags: readonly string[]): CertificationFeature[] {
  const features = enabledFeatureFlags
    .filter((flag) => Object.hasOwn(FEATURE_FLAG_CERTIFICATION_FEATURES, flag))
    .map((flag) => FEATURE_FLAG_CERTIFICATION_FEATURES[flag]);
  return certificationFeatures(['CARD', ...features]);
}

/** Known features only, each once, in catalog order: the same set always reads the same. */
export function certificationFeatures(features: readonly string[]): CertificationFeature[] {
  return CERTIFICATION_FEATURES.filter((feature) => features.includes(feature));
}

/**
 * Facts the platform observes while a partner integrates (an API call answered, a webhook
 * delivered). Listed here rather than derived from the checks so that a fact code is a type.
 */
export const FACT_CODES = [
  'API_KEY_ISSUED',
  'PARTNER_IDENTITY_READ',
  'MERCHANT_CREATED',
  'MERCHANT_SUBMITTED',
  'CARD_SALE_APPROVED',
  'CARD_SALE_DECLINED',
  'CARD_REFUND_PROCESSED',
  'CARD_VOID_PROCESSED',
  'IDEMPOTENT_REPLAY_OBSERVED',
  'ACH_DEBIT_SUBMITTED',
  'HPP_SESSION_COMPLETED',
  'WEBHOOK_URL_CONFIGURED',
  'WEBHOOK_DELIVERY_SUCCEEDED',
  'TERMINAL_PROVISIONED',
  'TERMINAL_HEARTBEAT_RECEIVED',
] as const;
export type FactCode = (typeof FACT_CODES)[number];

export const CERTIFICATION_STEPS = [
  { step: 'CONNECTIVITY', label: 'Connect and authenticate' },
  { step: 'MERCHANT_ONBOARDING', label: 'Onboard a merchant' },
  { step: 'CARD_PAYMENTS', label: 'Process card payments' },
  { step: 'ACH_PAYMENTS', label: 'Process ACH payments' },
  { step: 'HOSTED_PAYMENTS', label: 'Take payments on hosted payment pages' },
  { step: 'WEBHOOKS', label: 'Receive webhooks' },
  { step: 'TERMINAL', label: 'Provision in-person terminals' },
  { step: 'COMPLIANCE_REVIEW', label: 'Compliance review' },
] as const;
export type CertificationStepCode = (typeof CERTIFICATION_STEPS)[number]['step'];

/**
 * AUTOMATED: satisfied once every evidence fact has been observed for the partner, whatever step
 * the partner is on (a fact is a fact; the order of steps guides, it does not gate).
 * ADMIN_REVIEW: never satisfied automatically; it waits in AWAITING_ADMIN_REVIEW from the moment
 * its step unlocks until the operator certifies the partner (which waives it).
 */
export const CHECK_TIERS = ['AUTOMATED', 'ADMIN_REVIEW'] as const;
export type CheckTier = (typeof CHECK_TIERS)[number];

export interface CertificationCheckDefinition {
  checkCode: string;
  category: string;
  label: string;
  tier: CheckTier;
  /** 1: the main path; 2: error handling and follow-ups; 3: human review. */
  tierLevel: 1 | 2 | 3;
  step: CertificationStepCode;
  /** The feature whose presence in a flow brings the check in; null: every flow has it. */
  feature: CertificationFeature | null;
  flagGroup: string | null;
  flagGroupLabel: string | null;
  description: string;
  passCriteria: string;
  attestationStatement: string | null;
  /** AUTOMATED checks only; an ADMIN_REVIEW check has none (nothing observable proves it). */
  evidence: readonly FactCode[];
}

const CORE = { feature: null, flagGroup: null, flagGroupLabel: null } as const;
const CARD = { feature: 'CARD', flagGroup: null, flagGroupLabel: null } as const;
const ACH = { feature: 'ACH', flagGroup: 'ach_payments', flagGroupLabel: 'ACH payments' } as const;
const HPP = {
  feature: 'HPP',
  flagGroup: 'hosted_payment_pages',
  flagGroupLabel: 'Hosted payment pages',
} as const;
const TERMINAL = { feature: 'TERMINAL', flagGroup: 'terminals', flagGroupLabel: 'Terminals' } as const;

/**
 * ADMIN_REVIEW checks sit in the last step, COMPLIANCE_REVIEW: a check that is never resolved
 * automatically keeps its step incomplete, and would keep every later step locked.
 */
export const CERTIFICATION_CHECKS: readonly CertificationCheckDefinition[] = [
  {
    checkCode: 'API_AUTHENTICATION',
    category: 'CONNECTIVITY',
    label: 'Authenticate with an API key',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'CONNECTIVITY',
    ...CORE,
    description: 'Call the API with a key issued to the partner and read the partner identity.',
    passCriteria: 'A key was issued and GET /partner/me answered 200 with it.',
    attestationStatement: null,
    evidence: ['API_KEY_ISSUED', 'PARTNER_IDENTITY_READ'],
  },
  {
    checkCode: 'MERCHANT_CREATE',
    category: 'ONBOARDING',
    label: 'Create a merchant',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'MERCHANT_ONBOARDING',
    ...CORE,
    description: 'Create a merchant with its business and contact details.',
    passCriteria: 'POST /merchants created a merchant in DRAFT.',
    attestationStatement: null,
    evidence: ['MERCHANT_CREATED'],
  },
  {
    checkCode: 'MERCHANT_SUBMIT',
    category: 'ONBOARDING',
    label: 'Submit a merchant for review',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'MERCHANT_ONBOARDING',
    ...CORE,
    description: 'Submit a draft merchant for review.',
    passCriteria: 'A merchant moved from DRAFT to SUBMITTED.',
    attestationStatement: null,
    evidence: ['MERCHANT_SUBMITTED'],
  },
  {
    checkCode: 'CARD_SALE',
    category: 'PAYMENTS',
    label: 'Run an approved card sale',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'CARD_PAYMENTS',
    ...CARD,
    description: 'Charge a card with a SALE transaction.',
    passCriteria: 'A SALE transaction was approved.',
    attestationStatement: null,
    evidence: ['CARD_SALE_APPROVED'],
  },
  {
    checkCode: 'CARD_DECLINE',
    category: 'PAYMENTS',
    label: 'Handle a declined card sale',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'CARD_PAYMENTS',
    ...CARD,
    description: 'Run a SALE the issuer declines and read its decline code.',
    passCriteria: 'A SALE transaction was declined.',
    attestationStatement: null,
    evidence: ['CARD_SALE_DECLINED'],
  },
  {
    checkCode: 'CARD_REFUND',
    category: 'PAYMENTS',
    label: 'Refund a settled card sale',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'CARD_PAYMENTS',
    ...CARD,
    description: 'Refund all or part of a settled card transaction.',
    passCriteria: 'A REFUND or PARTIAL_REFUND was processed.',
    attestationStatement: null,
    evidence: ['CARD_REFUND_PROCESSED'],
  },
  {
    checkCode: 'CARD_VOID',
    category: 'PAYMENTS',
    label: 'Void a card transaction before settlement',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'CARD_PAYMENTS',
    ...CARD,
    description: 'Cancel an authorized or captured card transaction before it settles.',
    passCriteria: 'A VOID was processed.',
    attestationStatement: null,
    evidence: ['CARD_VOID_PROCESSED'],
  },
  {
    checkCode: 'IDEMPOTENT_RETRY',
    category: 'RELIABILITY',
    label: 'Retry a payment safely',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'CARD_PAYMENTS',
    ...CARD,
    description: 'Repeat a payment request with the same Idempotency-Key, as after a time-out.',
    passCriteria: 'A repeated request was answered from the idempotency record (X-Idempotent-Replay).',
    attestationStatement: null,
    evidence: ['IDEMPOTENT_REPLAY_OBSERVED'],
  },
  {
    checkCode: 'ACH_DEBIT',
    category: 'PAYMENTS',
    label: 'Submit an ACH debit',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'ACH_PAYMENTS',
    ...ACH,
    description: 'Debit a bank account through ACH.',
    passCriteria: 'An ACH entry reached SUBMITTED.',
    attestationStatement: null,
    evidence: ['ACH_DEBIT_SUBMITTED'],
  },
  {
    checkCode: 'HPP_CHECKOUT',
    category: 'PAYMENTS',
    label: 'Complete a hosted payment page session',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'HOSTED_PAYMENTS',
    ...HPP,
    description: 'Create a hosted payment page session and take a payment on it.',
    passCriteria: 'An HPP session completed.',
    attestationStatement: null,
    evidence: ['HPP_SESSION_COMPLETED'],
  },
  {
    checkCode: 'WEBHOOK_ENDPOINT',
    category: 'WEBHOOKS',
    label: 'Configure a webhook URL',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'WEBHOOKS',
    ...CORE,
    description: 'Tell the platform where to send events.',
    passCriteria: 'A webhook URL is configured for the partner.',
    attestationStatement: null,
    evidence: ['WEBHOOK_URL_CONFIGURED'],
  },
  {
    checkCode: 'WEBHOOK_DELIVERY',
    category: 'WEBHOOKS',
    label: 'Acknowledge a webhook delivery',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'WEBHOOKS',
    ...CORE,
    description: 'Receive a signed event and answer it with a 2xx status.',
    passCriteria: 'A webhook delivery SUCCEEDED.',
    attestationStatement: null,
    evidence: ['WEBHOOK_DELIVERY_SUCCEEDED'],
  },
  {
    checkCode: 'TERMINAL_PROVISIONING',
    category: 'TERMINALS',
    label: 'Provision a terminal',
    tier: 'AUTOMATED',
    tierLevel: 1,
    step: 'TERMINAL',
    ...TERMINAL,
    description: 'Provision a terminal for a merchant and store its API key.',
    passCriteria: 'A terminal was provisioned.',
    attestationStatement: null,
    evidence: ['TERMINAL_PROVISIONED'],
  },
  {
    checkCode: 'TERMINAL_HEARTBEAT',
    category: 'TERMINALS',
    label: 'Bring a terminal online',
    tier: 'AUTOMATED',
    tierLevel: 2,
    step: 'TERMINAL',
    ...TERMINAL,
    description: 'Connect a provisioned terminal so that it reports its heartbeat.',
    passCriteria: 'A heartbeat was received from a provisioned terminal.',
    attestationStatement: null,
    evidence: ['TERMINAL_HEARTBEAT_RECEIVED'],
  },
  {
    checkCode: 'PCI_SCOPE_ATTESTATION',
    category: 'COMPLIANCE',
    label: 'Attest to the PCI scope',
    tier: 'ADMIN_REVIEW',
    tierLevel: 3,
    step: 'COMPLIANCE_REVIEW',
    ...CARD,
    description: 'An administrator confirms that card data stays out of the partner software.',
    passCriteria: 'An administrator accepted the attestation.',
    attestationStatement:
      'Our software never receives, stores or transmits full card numbers or security codes: cards are ' +
      'entered only on the platform hosted payment pages or terminals and reused only by vault token.',
    evidence: [],
  },
  {
    checkCode: 'ACH_AUTHORIZATION_ATTESTATION',
    category: 'COMPLIANCE',
    label: 'Attest to ACH debit authorizations',
    tier: 'ADMIN_REVIEW',
    tierLevel: 3,
    step: 'COMPLIANCE_REVIEW',
    ...ACH,
    description: 'An administrator confirms how the partner captures ACH debit authorizations.',
    passCriteria: 'An administrator accepted the attestation.',
    attestationStatement:
      'We obtain the account holder authorization for every ACH debit in the form the NACHA rules ' +
      'require, keep it for the required period and produce it on request.',
    evidence: [],
  },
  {
    checkCode: 'HPP_UX_REVIEW',
    category: 'COMPLIANCE',
    label: 'Hosted payment page experience review',
    tier: 'ADMIN_REVIEW',
    tierLevel: 3,
    step: 'COMPLIANCE_REVIEW',
    ...HPP,
    description: 'An administrator reviews how the partner software embeds or redirects to the hosted page.',
    passCriteria: 'An administrator approved the payer experience.',
    attestationStatement: null,
    evidence: [],
  },
];

export interface CertificationPlan {
  checks: CertificationCheckDefinition[];
  /** Only the steps that have a check for these features, in catalog order. */
  steps: { step: CertificationStepCode; label: string; total: number }[];
}

/** The checks and steps a flow for these features contains. */
export function certificationPlan(features: readonly string[]): CertificationPlan {
  const checks = CERTIFICATION_CHECKS.filter(
    (check) => check.feature === null || features.includes(check.feature),
  );
  const steps = CERTIFICATION_STEPS.map(({ step, label }) => ({
    step,
    label,
    total: checks.filter((check) => check.step === step).length,
  })).filter((step) => step.total > 0);
  return { checks, steps };
}
