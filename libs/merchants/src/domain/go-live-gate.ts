import { z } from 'zod';
import { Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { Merchant } from './merchant';
import { MERCHANT_STATES } from './merchant-states';
import type { GoLiveGate } from './merchant-errors';

export interface GoLiveGateContext {
  environment: 'sandbox' | 'production';
  partnerCertificationStatus: string;
}

export const GoLiveCheckSchema = z.strictObject({
  code: z.string(),
  label: z.string(),
  passed: z.boolean(),
  detail: z.string(),
});
export type GoLiveCheck = z.infer<typeof GoLiveCheckSchema>;

export const GoLiveGateSchema = z
  .strictObject({
    merchant_id: Uuid,
    state: z.enum(MERCHANT_STATES),
    ready: z.boolean(),
    checks: z.array(GoLiveCheckSchema),
  })
  .meta({ id: 'GoLiveGate' });

/**
 * What must hold before the operator's `go_live` (ACTIVE → LIVE). Every check is listed with
 * pass or fail so the partner can see what is missing (`GET /merchants/{id}/go-live-gate`).
 * Checks are added here as the onboarding operations behind them are built; see
 * docs/merchants.md.
 */
export function goLiveChecks(merchant: Merchant, context: GoLiveGateContext): GoLiveCheck[] {
  const production = context.environment === 'production';
  const certified = context.partnerCertificationStatus === 'CERTIFIED';
  return [
    {
      code: 'merchant_active',
      label: 'Provisioning complete (merchant ACTIVE)',
      passed: merchant.state === 'ACTIVE' || merchant.state === 'LIVE',
      detail: `merchant is ${merchant.state}`,
    },
    {
      code: 'partner_certified',
      label: 'Partner certified (production only)',
      passed: !production || certified,
      detail: production
        ? `partner certification is ${context.partnerCertificationStatus}`
        : 'not required in sandbox',
    },
    {
      code: 'pci_saq_type_recorded',
      label: 'PCI self-assessment questionnaire type recorded',
      passed: merchant.pciSaqType !== null,
      detail: merchant.pciSaqType
        ? `SAQ ${merchant.pciSaqType}`
        : 'record it with POST /merchants/{id}/compliance/saq-type',
    },
    {
      code: 'hipaa_baa_signed',
      label: 'HIPAA business associate agreement signed (healthcare MCCs)',
      passed: merchant.hipaaBaaStatus !== 'REQUIRED',
      detail:
        merchant.hipaaBaaStatus === 'REQUIRED'
          ? 'the merchant category code requires a signed BAA: upload it as a BAA_SIGNED compliance document'
          : merchant.hipaaBaaStatus === 'SIGNED'
            ? 'the signed BAA was uploaded'
            : 'not required for this merchant category code',
    },
    {
      code: 'bank_account_verified',
      label: 'Settlement bank account verified',
      passed: merchant.bank?.status === 'VERIFIED',
      detail: merchant.bank
        ? `verification is ${merchant.bank.status}${merchant.bank.failureReason ? `: ${merchant.bank.failureReason}` : ''}`
        : 'set one with PUT /merchants/{id}/bank-account, then POST /merchants/{id}/bank-verification/check',
    },
  ];
}

/** The gate as the merchant decider takes it. */
export function goLiveGate(merchant: Merchant, context: GoLiveGateContext): GoLiveGate {
  return {
    checks: goLiveChecks(merchant, context).map(({ code, passed, detail }) => ({ code, passed, detail })),
  };
}

/** `GET /merchants/{id}/go-live-gate`. */
export function toGoLiveGateResource(
  merchant: Merchant,
  context: GoLiveGateContext,
): z.infer<typeof GoLiveGateSchema> {
  const checks = goLiveChecks(merchant, context);
  return { merchant_id: merchant.id, state: merchant.state, ready: checks.every((c) => c.passed), checks };
}
