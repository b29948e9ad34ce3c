import { evolve, initialState, type StoredCredential } from './stored-credential';
import type { StoredCredentialEvent } from './stored-credential-events';
import { toStoredCredentialResource } from './stored-credential-resource';

const ids = {
  storedCredentialId: '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11',
  merchantId: '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  partnerId: '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10',
};
const base = {
  ...ids,
  vaultToken: 'cvt_AbCdEfGhIjKlMnOpQrStUvWx0123',
  customerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  processor: 'sandbox',
  allowedUseTypes: ['RECURRING' as const],
  consent: { capturedAt: '2026-11-01T10:00:00.000Z', channel: 'hpp' as const, text: 'I agree.' },
  enrollmentTerms: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const fold = (events: StoredCredentialEvent[]) => events.reduce(evolve, initialState()) as StoredCredential;

/** The spec's field list (Stored credential resource), exactly. */
const SPEC_FIELDS = [
  'id',
  'vault_token',
  'merchant_id',
  'partner_id',
  'customer_id',
  'processor',
  'rail',
  'card',
  'bank',
  'scope',
  'enrollment_terms',
  'consent_captured',
  'state',
  'created_at',
  'version',
].sort();

describe('toStoredCredentialResource', () => {
  it('renders a card credential with the spec fields and only display data', () => {
    const resource = toStoredCredentialResource(
      fold([
        {
          type: 'StoredCredentialCreated',
          data: {
            ...base,
            paymentMethodType: 'card',
            card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030, funding: 'debit' },
            bank: null,
          },
        },
      ]),
    );
    expect(Object.keys(resource).sort()).toEqual(SPEC_FIELDS);
    expect(resource).toEqual({
      id: ids.storedCredentialId,
      vault_token: base.vaultToken,
      merchant_id: ids.merchantId,
      partner_id: ids.partnerId,
      customer_id: base.customerId,
      processor: 'sandbox',
      rail: 'CARD',
      card: { brand: 'VISA', last4: '1111', exp_month: 12, exp_year: 2030 },
      bank: null,
      scope: ['RECURRING'],
      enrollment_terms: null,
      consent_captured: true,
      state: 'ACTIVE',
      created_at: base.createdAt,
      version: 1,
    });
  });

  it('renders an ACH credential with bank last fours only, and a revoked one still reads', () => {
    const resource = toStoredCredentialResource(
      fold([
        {
          type: 'StoredCredentialCreated',
          data: {
            ...base,
            consent: null,
            enrollmentTerms: { amount: '10.00', frequency: 'monthly', duration: '12 months' },
            paymentMethodType: 'ach',
            card: null,
            bank: { routingLast4: '0015', accountLast4: '6789', accountType: 'SAVINGS' },
          },
        },
        {
          type: 'StoredCredentialRevoked',
          data: { ...ids, reason: 'r', revokedAt: '2026-11-02T00:00:00.000Z' },
        },
      ]),
    );
    expect(Object.keys(resource).sort()).toEqual(SPEC_FIELDS);
    expect(resource).toMatchObject({
      rail: 'ACH',
      card: null,
      bank: { account_type: 'SAVINGS', account_last4: '6789', routing_last4: '0015', name_on_account: null },
      enrollment_terms: { amount: '10.00', frequency: 'monthly', duration: '12 months' },
      consent_captured: false,
      state: 'REVOKED',
      version: 2,
    });
    expect(Object.keys(resource.bank ?? {}).sort()).toEqual([
      'account_last4',
      'account_type',
      'name_on_account',
      'routing_last4',
    ]);
  });
});
