import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { FixedClock } from '../../../platform/src/clock/clock';
import { parseAmount } from '../../../platform/src/money/amount';
import { SANDBOX_TEST_CARDS, sandboxCardFunding } from './test-cards';
import {
  GatewayReferenceReused,
  PaymentGateway,
  type AchDebitRequest,
  type AuthorizeAndCaptureRequest,
} from '../gateway';
import { SANDBOX_ROUTING_NUMBER, SandboxGateway } from './sandbox-gateway';
import { PostgresSandboxMemory, ProcessSandboxMemory, type SandboxMemory } from './sandbox-memory';

const NOW = new Date('2025-03-15T12:00:00.000Z');

function usd(amount: string): bigint {
  const parsed = parseAmount(amount, 'USD', { pointOptional: true });
  if (!parsed.ok) throw new Error(`bad amount ${amount}`);
  return parsed.minor;
}

let clock: FixedClock;
let gateway: SandboxGateway;
let next = 0;

let url: string;
let pool: Pool;

beforeAll(async () => {
  url = await createTestDatabase('sandbox_gateway');
  pool = new Pool({ connectionString: url, max: 4 });
  await PostgresSandboxMemory.migrate(pool);
});
afterAll(async () => {
  await pool.end();
  await dropTestDatabase(url);
});

function ref(): string {
  next += 1;
  return `idem-${next}`;
}

const NO_FEES = { surchargeMinor: 0n, convenienceFeeMinor: 0n };

function sale(overrides: Partial<AuthorizeAndCaptureRequest> & { amount?: string } = {}) {
  const { amount = '10.00', ...rest } = overrides;
  return {
    reference: ref(),
    merchantGatewayId: 'mid-1',
    amountMinor: usd(amount),
    fees: NO_FEES,
    currency: 'USD',
    card: { pan: '4111111111111111', expMonth: 12, expYear: 2027, cvc: '123' },
    ...rest,
  };
}

function debit(overrides: Partial<AchDebitRequest> & { amount?: string } = {}): AchDebitRequest {
  const { amount = '10.00', ...rest } = overrides;
  return {
    reference: ref(),
    routingNumber: SANDBOX_ROUTING_NUMBER,
    accountNumber: '000123456789',
    accountType: 'CHECKING',
    amountMinor: usd(amount),
    fees: NO_FEES,
    secCode: 'WEB',
    ...rest,
  };
}

async function approvedCapture(amount = '100.00'): Promise<string> {
  const result = await gateway.authorizeAndCapture(sale({ amount }));
  if (result.outcome !== 'APPROVED') throw new Error(`expected approval, got ${result.outcome}`);
  return result.gatewayTransactionId;
}

// Every rule holds wherever the sandbox keeps its records: in this process, or in PostgreSQL for
// every process of the service.
describe.each<[string, () => SandboxMemory]>([
  ['in this process', () => new ProcessSandboxMemory()],
  ['in PostgreSQL', () => new PostgresSandboxMemory(pool)],
])('the sandbox gateway, its records %s', (_where, makeMemory) => {
  beforeEach(() => {
    clock = new FixedClock(NOW);
    gateway = new SandboxGateway(clock, { memory: makeMemory() });
  });

  it('is a PaymentGateway', () => {
    expect(gateway).toBeInstanceOf(PaymentGateway);
  });

  describe('card SALE: cents triggers (CONTRACT §5)', () => {
    it.each(['10.00', '10.01', '10.50', '10.99', '0.06', '5', '1234.10'])('%s approves', async (amount) => {
      const result = await gateway.authorizeAndCapture(sale({ amount }));
      expect(result).toEqual({
        outcome: 'APPROVED',
        authorizationCode: expect.stringMatching(/^[0-9A-F]{6}$/),
        gatewayTransactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
        avsResponseCode: 'U',
        cvResponseCode: 'M',
      });
      expect(gateway.effects().captures).toBe(1);
    });

    it.each([
      ['10.05', 'insufficient_funds'],
      ['0.05', 'insufficient_funds'],
      ['10.51', 'card_declined'],
      ['999.54', 'expired_card'],
    ])('%s declines %s and captures nothing', async (amount, declineCode) => {
      expect(await gateway.authorizeAndCapture(sale({ amount }))).toEqual({
        outcome: 'DECLINED',
        declineCode,
      });
      expect(gateway.effects().captures).toBe(0);
    });

    it('.91 is UNKNOWN on the first attempt and APPROVED on a retry with the same reference', async () => {
      const request = sale({ amount: '10.91' });
      expect(await gateway.authorizeAndCapture(request)).toEqual({ outcome: 'UNKNOWN' });
      const retry = await gateway.authorizeAndCapture(request);
      expect(retry).toMatchObject({ outcome: 'APPROVED' });
      expect(await gateway.authorizeAndCapture(request)).toEqual(retry);
      expect(gateway.effects().captures).toBe(1);
    });

    it('.91 resolves to APPROVED by lookup, and a later retry agrees', async () => {
      const request = sale({ amount: '10.91' });
      expect(await gateway.authorizeAndCapture(request)).toEqual({ outcome: 'UNKNOWN' });
      const found = await gateway.lookup(request.reference);
      expect(found).toMatchObject({ status: 'FOUND', operation: 'authorizeAndCapture' });
      if (found.status !== 'FOUND') throw new Error('not found');
      expect(found.result).toMatchObject({ outcome: 'APPROVED' });
      expect(await gateway.authorizeAndCapture(request)).toEqual(found.result);
      expect(gateway.effects().captures).toBe(1);
    });

    it('the cents of the amount before fees decide: a surcharge or convenience fee never changes the outcome', async () => {
      // 10.51 + 0.26 surcharge = 10.77 charged: still the .51 decline.
      expect(
        await gateway.authorizeAndCapture(
          sale({ amountMinor: 1077n, fees: { surchargeMinor: 26n, convenienceFeeMinor: 0n } }),
        ),
      ).toEqual({ outcome: 'DECLINED', declineCode: 'card_declined' });
      // 10.00 + 0.05 convenience fee = 10.05 charged: approved, not .05's insufficient funds.
      expect(
        await gateway.authorizeAndCapture(
          sale({ amountMinor: 1005n, fees: { surchargeMinor: 0n, convenienceFeeMinor: 5n } }),
        ),
      ).toMatchObject({ outcome: 'APPROVED' });
      expect(
        await gateway.achDebit(
          debit({ amountMinor: 1079n, fees: { surchargeMinor: 0n, convenienceFeeMinor: 25n } }),
        ),
      ).toEqual({ outcome: 'DECLINED', declineCode: 'expired_card' });
      expect(gateway.effects().captures).toBe(1);
    });

    it('.91 on a new reference is UNKNOWN again (a new key is a new request)', async () => {
      expect(await gateway.authorizeAndCapture(sale({ amount: '10.91' }))).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.authorizeAndCapture(sale({ amount: '10.91' }))).toEqual({ outcome: 'UNKNOWN' });
      expect(gateway.effects().captures).toBe(2);
    });
  });

  describe('card SALE: cards', () => {
    it.each(SANDBOX_TEST_CARDS)('the test card $pan approves', async ({ pan }) => {
      const cvc = pan.startsWith('3') ? '1234' : '999';
      const result = await gateway.authorizeAndCapture(
        sale({ card: { pan, expMonth: 1, expYear: 2030, cvc } }),
      );
      expect(result.outcome).toBe('APPROVED');
    });

    it('a Luhn-valid card that is not a test card approves like one', async () => {
      const card = { pan: '4242424242424242', expMonth: 3, expYear: 2025, cvc: '000' };
      expect((await gateway.authorizeAndCapture(sale({ card }))).outcome).toBe('APPROVED');
      expect(await gateway.authorizeAndCapture(sale({ card, amount: '1.05' }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'insufficient_funds',
      });
    });

    it.each(['4111111111111112', '7000000000000000', '411111111111111', 'not-a-pan'])(
      'refuses %p with invalid_card_number before any trigger',
      async (pan) => {
        const card = { pan, expMonth: 12, expYear: 2027, cvc: '123' };
        for (const amount of ['10.00', '10.91']) {
          expect(await gateway.authorizeAndCapture(sale({ card, amount }))).toEqual({
            outcome: 'DECLINED',
            declineCode: 'invalid_card_number',
          });
        }
        expect(gateway.effects().captures).toBe(0);
      },
    );

    it('the month of the clock is still valid; last month is expired_card', async () => {
      const card = { pan: '4111111111111111', expMonth: 3, expYear: 2025, cvc: '123' };
      expect((await gateway.authorizeAndCapture(sale({ card }))).outcome).toBe('APPROVED');
      const lastMonth = { ...card, expMonth: 2 };
      expect(await gateway.authorizeAndCapture(sale({ card: lastMonth }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'expired_card',
      });
      clock.set(new Date('2025-04-01T00:00:00.000Z'));
      expect(await gateway.authorizeAndCapture(sale({ card }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'expired_card',
      });
    });

    it.each([
      [0, 2027],
      [13, 2027],
      [1.5, 2027],
      [12, 27],
    ])('refuses expiry %p/%p with invalid_expiry_date', async (expMonth, expYear) => {
      const card = { pan: '4111111111111111', expMonth, expYear, cvc: '123' };
      expect(await gateway.authorizeAndCapture(sale({ card }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'invalid_expiry_date',
      });
    });

    it('refuses a zero amount and an unknown currency', async () => {
      expect(await gateway.authorizeAndCapture(sale({ amount: '0' }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'invalid_amount',
      });
      expect(await gateway.authorizeAndCapture({ ...sale(), amountMinor: -100n })).toMatchObject({
        declineCode: 'invalid_amount',
      });
      expect(await gateway.authorizeAndCapture(sale({ currency: 'EUR' }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'currency_not_supported',
      });
      expect(gateway.effects().captures).toBe(0);
    });
  });

  describe('idempotency by reference', () => {
    it('the same reference answers the same and captures once', async () => {
      const request = sale();
      const first = await gateway.authorizeAndCapture(request);
      const second = await gateway.authorizeAndCapture(request);
      expect(second).toEqual(first);
      expect(gateway.effects().captures).toBe(1);
    });

    it('different references are different captures with different ids', async () => {
      const a = await gateway.authorizeAndCapture(sale());
      const b = await gateway.authorizeAndCapture(sale());
      expect(a).not.toEqual(b);
      expect(gateway.effects().captures).toBe(2);
    });

    it('two concurrent calls with one reference capture once', async () => {
      const request = sale();
      const [a, b] = await Promise.all([
        gateway.authorizeAndCapture(request),
        gateway.authorizeAndCapture({ ...request }),
      ]);
      expect(a).toEqual(b);
      expect(gateway.effects().captures).toBe(1);
    });

    it('a decline is kept too', async () => {
      const request = sale({ amount: '10.05' });
      expect(await gateway.authorizeAndCapture(request)).toEqual(await gateway.authorizeAndCapture(request));
      expect(await gateway.lookup(request.reference)).toEqual({
        status: 'FOUND',
        operation: 'authorizeAndCapture',
        result: { outcome: 'DECLINED', declineCode: 'insufficient_funds' },
      });
    });

    it('a retry without the CVC (the vault does not keep it) is the same request', async () => {
      const request = sale();
      const first = await gateway.authorizeAndCapture(request);
      const retry = await gateway.authorizeAndCapture({ ...request, card: { ...request.card, cvc: '' } });
      expect(retry).toEqual(first);
      expect(gateway.effects().captures).toBe(1);
    });

    it('the same reference with another amount, card or operation throws and has no effect', async () => {
      const request = sale();
      await gateway.authorizeAndCapture(request);
      await expect(gateway.authorizeAndCapture({ ...request, amountMinor: 999n })).rejects.toThrow(
        GatewayReferenceReused,
      );
      await expect(
        gateway.authorizeAndCapture({ ...request, card: { ...request.card, pan: '5555555555554444' } }),
      ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
      await expect(gateway.achDebit(debit({ reference: request.reference }))).rejects.toThrow(
        GatewayReferenceReused,
      );
      expect(gateway.effects()).toEqual({ captures: 1, achDebits: 0, refunds: 0, voids: 0 });
    });

    it('never puts the PAN in a result, a lookup or an error', async () => {
      const request = sale({ card: { pan: '5555555555554444', expMonth: 1, expYear: 2030, cvc: '321' } });
      const result = await gateway.authorizeAndCapture(request);
      const found = await gateway.lookup(request.reference);
      const error = await gateway.authorizeAndCapture({ ...request, amountMinor: 1n }).then(
        () => new Error('expected a throw'),
        (caught: unknown) => caught as Error,
      );
      expect(error).toBeInstanceOf(GatewayReferenceReused);
      for (const text of [JSON.stringify(result), JSON.stringify(found), String(error), error.stack ?? '']) {
        expect(text).not.toContain('5555555555554444');
      }
      expect(JSON.stringify([result, found])).not.toMatch(/cvc|pan|"321"/i);
    });

    it('lookup of a reference never sent is NOT_FOUND and has no effect', async () => {
      expect(await gateway.lookup('never-sent')).toEqual({ status: 'NOT_FOUND' });
      expect(gateway.effects().captures).toBe(0);
    });

    it('a result handed out cannot change what the gateway holds', async () => {
      const request = sale();
      const first = await gateway.authorizeAndCapture(request);
      (first as { outcome: string }).outcome = 'DECLINED';
      expect((await gateway.authorizeAndCapture(request)).outcome).toBe('APPROVED');
    });
  });

  describe('ACH debit', () => {
    it('011000015 with any account number submits', async () => {
      for (const accountNumber of ['1', '000123456789', '12345678901234567']) {
        const result = await gateway.achDebit(debit({ accountNumber }));
        expect(result).toEqual({
          outcome: 'SUBMITTED',
          gatewayTransactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
        });
      }
      expect(gateway.effects().achDebits).toBe(3);
    });

    it('another routing number that passes the ABA checksum submits too', async () => {
      expect(
        (await gateway.achDebit(debit({ routingNumber: '021000021', accountType: 'SAVINGS' }))).outcome,
      ).toBe('SUBMITTED');
    });

    it.each(['011000016', '110000015', '01100001', '0110000150', 'abcdefghi', ''])(
      'routing %p fails the ABA checksum: invalid_routing_number',
      async (routingNumber) => {
        expect(await gateway.achDebit(debit({ routingNumber, amount: '10.91' }))).toEqual({
          outcome: 'DECLINED',
          declineCode: 'invalid_routing_number',
        });
        expect(gateway.effects().achDebits).toBe(0);
      },
    );

    it.each(['', '12-34', 'abc', '123456789012345678'])(
      'account number %p is invalid_account_number',
      async (accountNumber) => {
        expect(await gateway.achDebit(debit({ accountNumber }))).toEqual({
          outcome: 'DECLINED',
          declineCode: 'invalid_account_number',
        });
      },
    );

    it.each([
      ['10.05', 'insufficient_funds'],
      ['10.51', 'card_declined'],
      ['10.54', 'expired_card'],
    ])('%s declines %s', async (amount, declineCode) => {
      expect(await gateway.achDebit(debit({ amount }))).toEqual({ outcome: 'DECLINED', declineCode });
      expect(gateway.effects().achDebits).toBe(0);
    });

    it('a zero amount is invalid_amount', async () => {
      expect(await gateway.achDebit(debit({ amount: '0.00' }))).toEqual({
        outcome: 'DECLINED',
        declineCode: 'invalid_amount',
      });
    });

    it('.91 is UNKNOWN first, then SUBMITTED on a retry or lookup of the same reference', async () => {
      const request = debit({ amount: '250.91', secCode: 'PPD' });
      expect(await gateway.achDebit(request)).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.lookup(request.reference)).toMatchObject({
        status: 'FOUND',
        operation: 'achDebit',
        result: { outcome: 'SUBMITTED' },
      });
      const retry = await gateway.achDebit(request);
      expect(retry.outcome).toBe('SUBMITTED');
      expect(await gateway.achDebit(request)).toEqual(retry);
      expect(gateway.effects().achDebits).toBe(1);
    });

    it('the same reference submits once', async () => {
      const request = debit();
      expect(await gateway.achDebit(request)).toEqual(await gateway.achDebit(request));
      expect(gateway.effects().achDebits).toBe(1);
    });
  });

  describe('unknown-outcome mode', () => {
    it('from the constructor: every call and lookup answers UNKNOWN until turned off', async () => {
      gateway = new SandboxGateway(clock, { unknownOutcomeMode: true, memory: makeMemory() });
      const charge = sale();
      const declined = sale({ amount: '10.51' });
      const ach = debit();
      expect(await gateway.authorizeAndCapture(charge)).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.authorizeAndCapture(charge)).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.authorizeAndCapture(declined)).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.achDebit(ach)).toEqual({ outcome: 'UNKNOWN' });
      expect(await gateway.lookup(charge.reference)).toEqual({ status: 'UNKNOWN' });
      expect(await gateway.lookup('never-sent')).toEqual({ status: 'UNKNOWN' });

      gateway.setUnknownOutcomeMode(false);
      expect(await gateway.lookup(charge.reference)).toMatchObject({ result: { outcome: 'APPROVED' } });
      expect((await gateway.authorizeAndCapture(charge)).outcome).toBe('APPROVED');
      expect(await gateway.authorizeAndCapture(declined)).toEqual({
        outcome: 'DECLINED',
        declineCode: 'card_declined',
      });
      expect((await gateway.achDebit(ach)).outcome).toBe('SUBMITTED');
      expect(await gateway.lookup('never-sent')).toEqual({ status: 'NOT_FOUND' });
      expect(gateway.effects()).toEqual({ captures: 1, achDebits: 1, refunds: 0, voids: 0 });
    });

    it('switched on later: known references, refunds and voids answer UNKNOWN too', async () => {
      const charge = sale();
      const approved = await gateway.authorizeAndCapture(charge);
      const id = await approvedCapture();
      gateway.setUnknownOutcomeMode(true);
      expect(await gateway.authorizeAndCapture(charge)).toEqual({ outcome: 'UNKNOWN' });
      const refund = { reference: ref(), gatewayTransactionId: id, amountMinor: usd('1.00') };
      expect(await gateway.refund(refund)).toEqual({ outcome: 'UNKNOWN' });
      const voidRequest = { reference: ref(), gatewayTransactionId: 'sbx_nope' };
      expect(await gateway.void(voidRequest)).toEqual({ outcome: 'UNKNOWN' });
      gateway.setUnknownOutcomeMode(false);
      expect(await gateway.authorizeAndCapture(charge)).toEqual(approved);
      expect((await gateway.refund(refund)).outcome).toBe('APPROVED');
      expect(await gateway.void(voidRequest)).toEqual({
        outcome: 'DECLINED',
        declineCode: 'transaction_not_found',
      });
      expect(gateway.effects().refunds).toBe(1);
    });
  });

  describe('refund', () => {
    it('refunds a capture in parts up to its amount, then refuses', async () => {
      const id = await approvedCapture('100.00');
      const first = await gateway.refund({
        reference: ref(),
        gatewayTransactionId: id,
        amountMinor: usd('60.00'),
      });
      expect(first).toEqual({ outcome: 'APPROVED', gatewayTransactionId: expect.stringMatching(/^sbx_/) });
      expect(
        await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: usd('40.01') }),
      ).toEqual({ outcome: 'DECLINED', declineCode: 'amount_exceeds_refundable' });
      expect(
        (await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: usd('40.00') }))
          .outcome,
      ).toBe('APPROVED');
      expect(await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: 1n })).toEqual({
        outcome: 'DECLINED',
        declineCode: 'amount_exceeds_refundable',
      });
      expect(await gateway.transaction(id)).toMatchObject({ refundedMinor: 10000n, amountMinor: 10000n });
      expect(gateway.effects().refunds).toBe(2);
    });

    it('the same reference refunds once', async () => {
      const id = await approvedCapture('100.00');
      const request = { reference: ref(), gatewayTransactionId: id, amountMinor: usd('30.00') };
      const first = await gateway.refund(request);
      expect(await gateway.refund(request)).toEqual(first);
      expect((await gateway.transaction(id))?.refundedMinor).toBe(3000n);
      expect(gateway.effects().refunds).toBe(1);
    });

    it('cents triggers do not apply to refunds', async () => {
      const id = await approvedCapture('100.00');
      expect(
        (await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: usd('1.05') }))
          .outcome,
      ).toBe('APPROVED');
    });

    it('an unknown gateway id is transaction_not_found', async () => {
      expect(
        await gateway.refund({ reference: ref(), gatewayTransactionId: 'sbx_unknown', amountMinor: 100n }),
      ).toEqual({ outcome: 'DECLINED', declineCode: 'transaction_not_found' });
      expect(gateway.effects().refunds).toBe(0);
    });

    it('refuses a refund of a refund, of a voided capture, and a zero amount', async () => {
      const id = await approvedCapture('100.00');
      const refund = await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: 100n });
      if (refund.outcome !== 'APPROVED') throw new Error('expected approval');
      expect(
        await gateway.refund({
          reference: ref(),
          gatewayTransactionId: refund.gatewayTransactionId,
          amountMinor: 1n,
        }),
      ).toEqual({ outcome: 'DECLINED', declineCode: 'transaction_not_refundable' });
      expect(await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: 0n })).toEqual({
        outcome: 'DECLINED',
        declineCode: 'invalid_amount',
      });

      const voided = await approvedCapture('20.00');
      await gateway.void({ reference: ref(), gatewayTransactionId: voided });
      expect(
        await gateway.refund({ reference: ref(), gatewayTransactionId: voided, amountMinor: 1n }),
      ).toEqual({
        outcome: 'DECLINED',
        declineCode: 'transaction_not_refundable',
      });
    });

    it('refunds an ACH debit (ACH_REFUND)', async () => {
      const result = await gateway.achDebit(debit({ amount: '50.00' }));
      if (result.outcome !== 'SUBMITTED') throw new Error('expected submission');
      const refund = {
        reference: ref(),
        gatewayTransactionId: result.gatewayTransactionId,
        amountMinor: usd('50.00'),
      };
      expect((await gateway.refund(refund)).outcome).toBe('APPROVED');
    });
  });

  describe('void', () => {
    it('voids a capture once; another void of it is transaction_not_voidable', async () => {
      const id = await approvedCapture();
      const request = { reference: ref(), gatewayTransactionId: id };
      expect(await gateway.void(request)).toEqual({ outcome: 'APPROVED' });
      expect(await gateway.void(request)).toEqual({ outcome: 'APPROVED' });
      expect(await gateway.void({ reference: ref(), gatewayTransactionId: id })).toEqual({
        outcome: 'DECLINED',
        declineCode: 'transaction_not_voidable',
      });
      expect((await gateway.transaction(id))?.voided).toBe(true);
      expect(gateway.effects().voids).toBe(1);
      expect(await gateway.lookup(request.reference)).toEqual({
        status: 'FOUND',
        operation: 'void',
        result: { outcome: 'APPROVED' },
      });
    });

    it('an unknown gateway id is transaction_not_found', async () => {
      expect(await gateway.void({ reference: ref(), gatewayTransactionId: 'sbx_unknown' })).toEqual({
        outcome: 'DECLINED',
        declineCode: 'transaction_not_found',
      });
      expect(gateway.effects().voids).toBe(0);
    });

    it('refuses a void after a refund', async () => {
      const id = await approvedCapture();
      await gateway.refund({ reference: ref(), gatewayTransactionId: id, amountMinor: 100n });
      expect(await gateway.void({ reference: ref(), gatewayTransactionId: id })).toEqual({
        outcome: 'DECLINED',
        declineCode: 'transaction_not_voidable',
      });
    });

    it('voids an ACH debit (ACH_VOID)', async () => {
      const result = await gateway.achDebit(debit());
      if (result.outcome !== 'SUBMITTED') throw new Error('expected submission');
      expect(
        await gateway.void({ reference: ref(), gatewayTransactionId: result.gatewayTransactionId }),
      ).toEqual({
        outcome: 'APPROVED',
      });
    });
  });

  describe('card funding (the sandbox BIN data)', () => {
    const gateway = new SandboxGateway(new FixedClock(new Date('2026-11-01T00:00:00Z')));
    it.each(SANDBOX_TEST_CARDS)('answers $funding for $pan', async ({ pan, funding }) => {
      expect(await gateway.cardFunding(pan)).toBe(funding);
      expect(await gateway.cardFunding(pan)).toBe(sandboxCardFunding(pan));
    });
    it('answers credit for a card it does not know', async () => {
      expect(await gateway.cardFunding('4242424242424242')).toBe('credit');
    });
  });

  describe('sandbox AVS and CV answers (docs/gateway.md)', () => {
    const clock = new FixedClock(new Date('2026-11-23T12:00:00Z'));
    it.each([
      [null, 'U'],
      ['00000', 'N'],
      ['11111', 'Z'],
      ['94107', 'Y'],
    ])('postal code %s answers AVS %s', async (postalCode, avs) => {
      const gateway = new SandboxGateway(clock);
      const result = await gateway.authorizeAndCapture({
        reference: `avs-${postalCode}`,
        merchantGatewayId: 'mid-1',
        amountMinor: 1000n,
        fees: NO_FEES,
        currency: 'USD',
        card: { pan: '4111111111111111', expMonth: 12, expYear: 2030, cvc: null, postalCode },
      });
      expect(result).toMatchObject({ outcome: 'APPROVED', avsResponseCode: avs, cvResponseCode: 'P' });
    });
  });
});

describe('two processes sharing the records in PostgreSQL', () => {
  const twoProcesses = () =>
    [0, 1].map(() => new SandboxGateway(new FixedClock(NOW), { memory: new PostgresSandboxMemory(pool) }));

  it('one reference charged by both at once is charged once, and both answer the same', async () => {
    const [a, b] = twoProcesses();
    const charge = sale();
    const answers = await Promise.all([a.authorizeAndCapture(charge), b.authorizeAndCapture(charge)]);
    expect(answers[0]).toEqual(answers[1]);
    expect(a.effects().captures + b.effects().captures).toBe(1);
  });

  it('a retry taken over by another process finds the charge the first one made', async () => {
    const [a, b] = twoProcesses();
    const charge = sale({ amount: '10.91' }); // the answer is lost; the charge happened
    expect(await a.authorizeAndCapture(charge)).toEqual({ outcome: 'UNKNOWN' });
    expect(await b.lookup(charge.reference)).toMatchObject({
      status: 'FOUND',
      result: { outcome: 'APPROVED' },
    });
    expect(await b.authorizeAndCapture(charge)).toMatchObject({ outcome: 'APPROVED' });
    expect(b.effects().captures).toBe(0);
  });

  it('refunds sent to both of a capture made by one take turns and never exceed it', async () => {
    const [a, b] = twoProcesses();
    const captured = await a.authorizeAndCapture(sale({ amount: '10.00' }));
    if (captured.outcome !== 'APPROVED') throw new Error('expected an approval');
    const refund = (gateway: SandboxGateway) =>
      gateway.refund({
        reference: ref(),
        gatewayTransactionId: captured.gatewayTransactionId,
        amountMinor: 400n,
      });
    const answers = await Promise.all([refund(a), refund(b), refund(a), refund(b)]);
    expect(answers.filter((r) => r.outcome === 'APPROVED')).toHaveLength(2);
    expect(answers.filter((r) => r.outcome === 'DECLINED')).toEqual([
      { outcome: 'DECLINED', declineCode: 'amount_exceeds_refundable' },
      { outcome: 'DECLINED', declineCode: 'amount_exceeds_refundable' },
    ]);
    expect(await b.transaction(captured.gatewayTransactionId)).toMatchObject({ refundedMinor: 800n });
  });
});
