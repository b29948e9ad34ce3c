import type { StoredCredential } from './stored-credential';
import type { StoredCredentialState, UseType } from './stored-credential-states';

/**
 * The spec's Stored credential resource, field for field (snake_case, as on the wire). Of the
 * instrument only brand, last four and expiry (card) and the last fours and account type (bank)
 * leave: the spec's card has no `funding`, so funding stays in the event for internal use.
 * `name_on_account` is a spec field the vault does not hold: always null.
 */
export interface StoredCredentialResource {
  id: string;
  vault_token: string;
  merchant_id: string;
  partner_id: string;
  customer_id: string | null;
  processor: string;
  rail: 'CARD' | 'ACH';
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
  bank: {
    account_type: string;
    account_last4: string;
    routing_last4: string;
    name_on_account: string | null;
  } | null;
  scope: UseType[];
  enrollment_terms: { amount: string | null; frequency: string | null; duration: string | null } | null;
  consent_captured: boolean;
  state: StoredCredentialState;
  created_at: string;
  version: number;
}

/** The resource, also the list form (the spec shows no separate one). */
export function toStoredCredentialResource(c: StoredCredential): StoredCredentialResource {
  return {
    id: c.id,
    vault_token: c.vaultToken,
    merchant_id: c.merchantId,
    partner_id: c.partnerId,
    customer_id: c.customerId,
    processor: c.processor,
    rail: c.paymentMethodType === 'card' ? 'CARD' : 'ACH',
    card: c.card && {
      brand: c.card.brand,
      last4: c.card.last4,
      exp_month: c.card.expMonth,
      exp_year: c.card.expYear,
    },
    bank: c.bank && {
      account_type: c.bank.accountType,
      account_last4: c.bank.accountLast4,
      routing_last4: c.bank.routingLast4,
      name_on_account: null,
    },
    scope: [...c.allowedUseTypes],
    enrollment_terms: c.enrollmentTerms && {
      amount: c.enrollmentTerms.amount,
      frequency: c.enrollmentTerms.frequency,
      duration: c.enrollmentTerms.duration,
    },
    consent_captured: c.consent !== null,
    state: c.state,
    created_at: c.createdAt,
    version: c.version,
  };
}
