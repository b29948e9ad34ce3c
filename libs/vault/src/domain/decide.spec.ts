import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { assertChargeable, decide, type StoredCredentialCommand } from './decide';
import { evolve, initialState, type StoredCredential } from './stored-credential';
import {
  StoredCredentialInvalid,
  StoredCredentialNotChargeable,
  StoredCredentialNotFound,
  StoredCredentialScopeViolation,
} from './stored-credential-errors';
import type { StoredCredentialCreated, StoredCredentialEvent } from './stored-credential-events';
import {
  STORED_CREDENTIAL_STATES,
  STORED_CREDENTIAL_TRANSITIONS,
  USE_TYPES,
  canTransition,
  transition,
  type StoredCredentialAction,
  type StoredCredentialState,
} from './stored-credential-states';
import { storedCredentialStream } from './stored-credential-stream';

const ID = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const TOKEN = 'cvt_AbCdEfGhIjKlMnOpQrStUvWx0123';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const ids = { storedCredentialId: ID, merchantId: MERCHANT, partnerId: PARTNER };
const CONSENT = { capturedAt: T0.toISOString(), channel: 'hpp' as const, text: 'I agree to future charges.' };
const CARD = {
  brand: 'VISA' as const,
  last4: '1111',
  expMonth: 12,
  expYear: 2030,
  funding: 'credit' as const,
};
const BANK = { routingLast4: '0015', accountLast4: '6789', accountType: 'CHECKING' as const };
const given = deciderSpec({ decide, evolve, initialState });

type Create = Extract<StoredCredentialCommand, { type: 'CreateStoredCredential' }>;
const create = (fields: Partial<Create> = {}): StoredCredentialCommand => ({
  type: 'CreateStoredCredential',
  storedCredentialId: ID,
  vaultToken: TOKEN,
  partnerId: PARTNER,
  merchantId: MERCHANT,
  customerId: null,
  processor: 'sandbox',
  paymentMethodType: 'card',
  card: CARD,
  bank: null,
  allowedUseTypes: ['RECURRING'],
  consent: CONSENT,
  at: T0,
  ...fields,
});
const revoke = (reason?: string | null): StoredCredentialCommand => ({
  type: 'RevokeStoredCredential',
  storedCredentialId: ID,
  at: T1,
  reason,
});

const created = (data: Partial<StoredCredentialCreated['data']> = {}): StoredCredentialEvent => ({
  type: 'StoredCredentialCreated',
  data: {
    ...ids,
    vaultToken: TOKEN,
    customerId: null,
    processor: 'sandbox',
    paymentMethodType: 'card',
    card: CARD,
    bank: null,
    allowedUseTypes: ['RECURRING'],
    consent: CONSENT,
    enrollmentTerms: null,
    createdAt: T0.toISOString(),
    ...data,
  },
});
const revoked = (reason: string | null = null): StoredCredentialEvent => ({
  type: 'StoredCredentialRevoked',
  data: { ...ids, reason, revokedAt: T1.toISOString() },
});
const fold = (events: StoredCredentialEvent[]) => events.reduce(evolve, initialState()) as StoredCredential;

it('lives on stored_credential-{id}', () => {
  expect(storedCredentialStream(ID)).toBe(`stored_credential-${ID}`);
});

describe('CreateStoredCredential', () => {
  it('creates an ACTIVE card credential', () =>
    given([])
      .when(create())
      .thenState((state, events) => {
        expect(events).toEqual([created()]);
        expect(state).toMatchObject({ state: 'ACTIVE', version: 1, vaultToken: TOKEN, revokedAt: null });
      }));

  it('creates an ACH credential with bank last fours only', () =>
    given([])
      .when(create({ paymentMethodType: 'ach', card: null, bank: BANK }))
      .then([created({ paymentMethodType: 'ach', card: null, bank: BANK })]));

  it('deduplicates the use types and keeps enrollment terms', () => {
    const terms = { amount: '10.00', frequency: 'monthly', duration: '12 months' };
    return given([])
      .when(create({ allowedUseTypes: ['RECURRING', 'INSTALLMENT', 'RECURRING'], enrollmentTerms: terms }))
      .then([created({ allowedUseTypes: ['RECURRING', 'INSTALLMENT'], enrollmentTerms: terms })]);
  });

  it('refuses a second create (409)', () =>
    given([created()])
      .when(create())
      .thenThrows(InvalidStateTransition, { from: 'ACTIVE', action: 'create' }));

  it.each<[string, Partial<Create>, string]>([
    ['a malformed token', { vaultToken: 'tok_123' }, 'vault_token'],
    ['no use types', { allowedUseTypes: [] }, 'credential_usages'],
    ['an unknown use type', { allowedUseTypes: ['RECURRING', 'CARD_ON_FILE'] }, 'credential_usages[1]'],
    ['a card type without card', { card: null }, 'card'],
    ['a card type with bank too', { bank: BANK }, 'card'],
    ['an ach type without bank', { paymentMethodType: 'ach', card: null }, 'bank'],
    ['an ach type with a card', { paymentMethodType: 'ach', bank: BANK }, 'bank'],
    ['a bad last4', { card: { ...CARD, last4: '11' } }, 'card.last4'],
    ['a bad month', { card: { ...CARD, expMonth: 13 } }, 'card.exp_month'],
    ['a blank consent text', { consent: { ...CONSENT, text: ' ' } }, 'consent.text'],
    ['an unknown consent channel', { consent: { ...CONSENT, channel: 'email' as 'api' } }, 'consent.channel'],
  ])('refuses %s (400 validation_error naming %s)', (_label, fields, field) =>
    given([])
      .when(create(fields))
      .thenThrows(StoredCredentialInvalid, {
        code: 'validation_error',
        errors: expect.arrayContaining([expect.objectContaining({ field })]),
      }),
  );
});

describe('RevokeStoredCredential', () => {
  it('revokes an ACTIVE credential, keeping the reason', () =>
    given([created()])
      .when(revoke('customer asked'))
      .thenState((state, events) => {
        expect(events).toEqual([revoked('customer asked')]);
        expect(state).toMatchObject({
          state: 'REVOKED',
          version: 2,
          revokedAt: T1.toISOString(),
          revocationReason: 'customer asked',
        });
      }));

  it.each([undefined, null, '', '   '])('a missing or blank reason (%j) is recorded as null', (reason) =>
    given([created()])
      .when(revoke(reason))
      .then([revoked(null)]),
  );

  it('trims the reason; 500 characters are accepted, 501 refused', () => {
    given([created()])
      .when(revoke(`  ${'r'.repeat(500)}  `))
      .then([revoked('r'.repeat(500))]);
    given([created()])
      .when(revoke('r'.repeat(501)))
      .thenThrows(StoredCredentialInvalid, { errors: [expect.objectContaining({ field: 'reason' })] });
  });

  it('revoking twice is 409 invalid_state_transition', () =>
    given([created(), revoked()]).when(revoke()).thenThrows(InvalidStateTransition, {
      code: 'invalid_state_transition',
      from: 'REVOKED',
      action: 'revoke',
    }));

  it('revoking an unknown credential is 404', () =>
    given([]).when(revoke()).thenThrows(StoredCredentialNotFound, { code: 'stored_credential_not_found' }));
});

describe('the transition table', () => {
  const actions = Object.keys(STORED_CREDENTIAL_TRANSITIONS) as StoredCredentialAction[];
  const expected: Record<
    StoredCredentialAction,
    Record<StoredCredentialState, StoredCredentialState | null>
  > = {
    revoke: { ACTIVE: 'REVOKED', REVOKED: null },
  };
  const cases = actions.flatMap((action) =>
    STORED_CREDENTIAL_STATES.map((from) => [from, action, expected[action][from]] as const),
  );

  it('covers every (state, action) pair', () => {
    expect(cases).toHaveLength(STORED_CREDENTIAL_STATES.length * actions.length);
  });

  it.each(cases)('%s --%s--> %s', (from, action, to) => {
    expect(canTransition(from, action)).toBe(to !== null);
    if (to === null) {
      expect(() => transition(from, action)).toThrow(InvalidStateTransition);
    } else {
      expect(transition(from, action)).toBe(to);
    }
  });
});

describe('assertChargeable', () => {
  const active = fold([created({ allowedUseTypes: ['RECURRING', 'INSTALLMENT'] })]);
  const at = new Date('2027-03-15T00:00:00Z');

  it.each(USE_TYPES.map((u) => [u, u === 'RECURRING' || u === 'INSTALLMENT'] as const))(
    'use_type %s within scope [RECURRING, INSTALLMENT]: %s',
    (useType, allowed) => {
      if (allowed) {
        expect(() => assertChargeable(active, useType, at)).not.toThrow();
      } else {
        let thrown: unknown;
        try {
          assertChargeable(active, useType, at);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(StoredCredentialScopeViolation);
        expect(thrown).toMatchObject({
          code: 'stored_credential_scope_violation',
          retryable: false,
          useType,
          allowedUseTypes: ['RECURRING', 'INSTALLMENT'],
        });
      }
    },
  );

  it.each(['CARD_ON_FILE', 'recurring', ''])('an unknown use_type %j is a scope violation', (useType) => {
    expect(() => assertChargeable(active, useType, at)).toThrow(StoredCredentialScopeViolation);
  });

  const notChargeable: [string, StoredCredential, string, Date, string][] = [
    ['revoked', fold([created(), revoked()]), 'RECURRING', at, 'revoked'],
    [
      'revoked, even with an out-of-scope use type',
      fold([created(), revoked()]),
      'UNSCHEDULED_COF',
      at,
      'revoked',
    ],
    ['without recorded consent', fold([created({ consent: null })]), 'RECURRING', at, 'consent_missing'],
    [
      'a card past its expiry month',
      fold([created({ card: { ...CARD, expMonth: 2, expYear: 2027 } })]),
      'RECURRING',
      new Date('2027-03-01T00:00:00.000Z'),
      'card_expired',
    ],
  ];
  it.each(notChargeable)(
    'not chargeable when %s (422, retryable false)',
    (_label, credential, useType, when, reason) => {
      let thrown: unknown;
      try {
        assertChargeable(credential, useType, when);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(StoredCredentialNotChargeable);
      expect(thrown).toMatchObject({ code: 'stored_credential_not_chargeable', retryable: false, reason });
    },
  );

  it('a card is chargeable through the last instant of its expiry month (UTC)', () => {
    const card = fold([created({ card: { ...CARD, expMonth: 2, expYear: 2027 } })]);
    expect(() => assertChargeable(card, 'RECURRING', new Date('2027-02-28T23:59:59.999Z'))).not.toThrow();
  });

  it('an ACH credential has no expiry', () => {
    const ach = fold([created({ paymentMethodType: 'ach', card: null, bank: BANK })]);
    expect(() => assertChargeable(ach, 'RECURRING', new Date('2099-01-01T00:00:00Z'))).not.toThrow();
  });

  it('only the transient customer-link reason is retryable', () => {
    expect(new StoredCredentialNotChargeable(ID, 'customer_link_pending').retryable).toBe(true);
    expect(new StoredCredentialNotChargeable(ID, 'revoked').retryable).toBe(false);
  });
});
