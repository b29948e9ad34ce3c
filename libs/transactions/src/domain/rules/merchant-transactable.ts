import type { Merchant } from '../../../../merchants/src/domain';
import { MerchantNotTransactable } from '../transaction-errors';

/**
 * CONTRACT §5a: a merchant transacts when ACTIVE or LIVE in sandbox (probe and test transactions
 * run before go-live), and only when LIVE in production. Every path that takes money checks it:
 * POST /transactions, hosted-page sessions and their completion.
 */
export function assertMerchantTransactable(merchant: Merchant, environment: 'sandbox' | 'production'): void {
  const allowed = environment === 'production' ? ['LIVE'] : ['ACTIVE', 'LIVE'];
  if (!allowed.includes(merchant.state)) {
    throw new MerchantNotTransactable(merchant.id, merchant.state, environment);
  }
}
