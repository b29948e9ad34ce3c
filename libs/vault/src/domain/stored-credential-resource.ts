import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { StoredCredential } from './stored-credential';
import { STORED_CREDENTIAL_STATES, USE_TYPES } from './stored-credential-states';

/**
 * The spec's Stored credential resource, field for field (snake_case, as on the wire). Of the
 * instrument only brand, last four and expiry (card) and the last fours and account type (bank)
 * leave: the spec's card has no `funding`, so funding stays in the event for internal use.
 * `name_on_account` is a spec field the vault does not hold: always null.
 */
export const StoredCredentialResourceSchema = z
  .strictObject({
    id: Uuid,
    vault_token: z
      .string()
      .regex(/^cvt_/)
      .meta({ description: 'Opaque, partner-scoped: charge it with POST /transactions.' }),
    merchant_id: Uuid,
    partner_id: Uuid,
    customer_id: Uuid.nullable(),
    processor: z.string(),
    rail: z.enum(['CARD', 'ACH']),
    card: z
      .strictObject({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.int().min(1).max(12),
        exp_year: z.int(),
      })
      .nullable(),
    bank: z
      .strictObject({
        account_type: z.string(),
        account_last4: z.string(),
        routing_last4: z.string(),
        name_on_account: z.string().nullable(),
      })
      .nullable(),
    scope: z.array(z.enum(USE_TYPES)),
    enrollment_terms: z
      .strictObject({
        amount: z.string().nullable(),
        frequency: z.string().nullable(),
        duration: z.string().nullable(),
      })
      .nullable(),
    consent_captured: z.boolean(),
    state: z.enum(STORED_CREDENTIAL_STATES),
    created_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'StoredCredential' });

export type StoredCredentialResource = z.infer<typeof StoredCredentialResourceSchema>;

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
