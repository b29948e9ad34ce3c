import type { Contract } from './contract';
import type { HoldReason } from './contract-events';

/**
 * The feature flags a contract's charges need (docs/feature-flags.md): ACH's for a bank account,
 * the flag of its use type, and those of what each charge carries (custom fields, Level 2/3
 * data), as `POST /transactions` would need them for the same charge.
 */
export function flagsNeeded(
  c: Pick<Contract, 'paymentMethodType' | 'useType' | 'customFields' | 'level2Data' | 'level3Data'>,
): string[] {
  const flags = c.paymentMethodType === 'ACH' ? ['ach_payments'] : [];
  flags.push(c.useType === 'INSTALLMENT' ? 'installments' : 'recurring_billing');
  if (c.customFields.length > 0) flags.push('custom_fields');
  if (c.level2Data !== null || c.level3Data !== null) flags.push('level2_level3_data');
  return flags;
}

export interface Hold {
  reasonCode: HoldReason;
  reason: string;
}

/**
 * Why the platform must not charge the contract now (docs/recurring.md "Holds"), or null: the
 * merchant is SUSPENDED or CLOSED (or otherwise not allowed to transact), or the partner turned
 * off a flag the charges need. Charging pauses with this reason and resumes when it is gone.
 */
export function holdFor(
  c: Pick<Contract, 'paymentMethodType' | 'useType' | 'customFields' | 'level2Data' | 'level3Data'>,
  merchant: { state: string; transactable: boolean },
  enabledFeatures: readonly string[],
): Hold | null {
  if (merchant.state === 'SUSPENDED')
    return { reasonCode: 'merchant_suspended', reason: 'the merchant is SUSPENDED' };
  if (merchant.state === 'CLOSED') return { reasonCode: 'merchant_closed', reason: 'the merchant is CLOSED' };
  if (!merchant.transactable) {
    return {
      reasonCode: 'merchant_not_transactable',
      reason: `the merchant is ${merchant.state} and may not transact`,
    };
  }
  const off = flagsNeeded(c).find((flag) => !enabledFeatures.includes(flag));
  if (off) return { reasonCode: 'feature_not_enabled', reason: `the feature flag ${off} is off` };
  return null;
}
