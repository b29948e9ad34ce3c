import type { FeatureNeed } from '../../../partners/src/domain';
import type { TransactionRequest } from './transaction-request';

/** The ACH types of `POST /transactions` (docs/feature-flags.md: `ach_payments`). */
const ACH_TYPES: readonly string[] = ['ACH_DEBIT', 'ACH_VOID', 'ACH_REFUND', 'ACH_REVERSAL'];

/**
 * The feature flags a `POST /transactions` body needs, in the order a refusal names them
 * (docs/feature-flags.md, the table's `POST /transactions` rows). Checked right after the body's
 * form, before the merchant, the parent or the vault token is looked up, so a partner without
 * ACH hears 403 `feature_not_enabled`, not what its token holds.
 *
 * An empty `custom_fields` array asks for nothing and needs no flag.
 */
export function featuresNeeded(request: TransactionRequest): FeatureNeed[] {
  const needs: FeatureNeed[] = [];
  if (ACH_TYPES.includes(request.type)) {
    needs.push({ flag: 'ach_payments', field: 'type', what: `an ${request.type} transaction` });
  }
  if (request.kind !== 'charge') return needs;
  if (request.useType === 'RECURRING') {
    needs.push({ flag: 'recurring_billing', field: 'use_type', what: 'use_type RECURRING' });
  }
  if (request.useType === 'INSTALLMENT') {
    needs.push({ flag: 'installments', field: 'use_type', what: 'use_type INSTALLMENT' });
  }
  if (request.level2Data !== null) {
    needs.push({ flag: 'level2_level3_data', field: 'level2_data', what: 'level2_data' });
  }
  if (request.level3Data !== null) {
    needs.push({ flag: 'level2_level3_data', field: 'level3_data', what: 'level3_data' });
  }
  if (Array.isArray(request.customFields) && request.customFields.length > 0) {
    needs.push({ flag: 'custom_fields', field: 'custom_fields', what: 'custom_fields on a transaction' });
  }
  return needs;
}
