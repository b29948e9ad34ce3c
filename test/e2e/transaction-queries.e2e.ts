/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { NewEvent } from '../../libs/event-store/src';
import { DECLINE_REASONS } from '../../libs/transactions/src/domain/avs-policy';
import type {
  BankSnapshot,
  CardSnapshot,
  TransactionEvent,
  TransactionInitiated,
} from '../../libs/transactions/src/domain/transaction-events';
import { transactionStream } from '../../libs/transactions/src/domain/transaction-events';
import type { Rail, TransactionType } from '../../libs/transactions/src/domain/transaction-states';
import { useTestPlatform, type ApiResponse, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import { eventually } from '../support/eventually';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';
import { expectProblem, expectValidationError } from '../support/problems';

/**
 * `GET /transactions`, `/transactions/summary` and `/transactions/export` on a known data set.
 * Transactions are written as their events straight into the event store (the same events the
 * command side records) and read back once the `transaction-list` projector has them.
 */

const LIST_ITEM_FIELDS = [
  'id',
  'merchant_id',
  'merchant_name',
  'type',
  'rail',
  'amount',
  'currency',
  'state',
  'approval_code',
  'decline_code',
  'decline_reason',
  'card_last4',
  'routing_last4',
  'account_last4',
  'account_type',
  'customer_id',
  'created_at',
];

/** A strict RFC 4180 reader, fed in pieces: CRLF records, quoted fields, doubled quotes. */
class CsvReader {
  private field = '';
  private record: string[] = [];
  private state: 'start' | 'plain' | 'quoted' | 'quote' | 'cr' = 'start';

  constructor(private readonly onRecord: (record: string[]) => void) {}

  feed(text: string): void {
    for (const c of text) {
      switch (this.state) {
        case 'start':
        case 'plain':
          if (c === ',') this.endField();
          else if (c === '\r') {
            this.endField();
            this.state = 'cr';
          } else if (c === '"' && this.state === 'start') this.state = 'quoted';
          else if (c === '"' || c === '\n') throw new Error(`bare ${JSON.stringify(c)} in an unquoted field`);
          else {
            this.field += c;
            this.state = 'plain';
          }
          break;
        case 'quoted':
          if (c === '"') this.state = 'quote';
          else this.field += c;
          break;
        case 'quote':
          if (c === '"') {
            this.field += '"';
            this.state = 'quoted';
          } else if (c === ',') this.endField();
          else if (c === '\r') {
            this.endField();
            this.state = 'cr';
          } else throw new Error(`${JSON.stringify(c)} after a closing quote`);
          break;
        case 'cr':
          if (c !== '\n') throw new Error('CR without LF');
          this.onRecord(this.record);
          this.record = [];
          this.state = 'start';
          break;
      }
    }
  }

  /** The input must end with the CRLF of its last record. */
  end(): void {
    if (this.state !== 'start' || this.record.length > 0 || this.field !== '') {
      throw new Error('the CSV does not end with a complete record');
    }
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = '';
    this.state = 'start';
  }
}

function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const reader = new CsvReader((r) => records.push(r));
  reader.feed(text);
  reader.end();
  return records;
}

/** A full garbage collection on demand, so heap figures count what is kept, not what is pending. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

interface Seed {
  key: string;
  merchant: string;
  type: TransactionType;
  rail: Rail;
  amountMinor: string;
  hours: number;
  outcome: 'approved' | 'declined' | 'pending';
  gatewayId?: string | null;
  approvalCode?: string | null;
  declineCode?: string;
  card?: CardSnapshot | null;
  bank?: BankSnapshot | null;
  customerId?: string | null;
  parent?: string | null;
}

describe('transactions: list, search, summary and export', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let other: TestPartner;
  let m1: string;
  let m2: string;
  let otherMerchant: string;
  const customer = randomUUID();
  /** Transaction ids by key. */
  const tx: Record<string, string> = {};

  const newMerchant = async (p: TestPartner, name: string): Promise<string> => {
    const res = await p.client.post('/merchants', {
      business_name: name,
      contact_email: 'owner@merchant.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  const append = async (partnerId: string, id: string, events: TransactionEvent[], first: boolean) => {
    const { eventStore } = platform().service.infra;
    const result = await eventStore.appendToStream(transactionStream(id), events as NewEvent[], {
      expectedRevision: first ? 'no_stream' : 'stream_exists',
      metadata: testMetadata({ actor: `partner:${partnerId}:key:test`, partner_id: partnerId }),
    });
    expect(await platform().service.infra.projections.waitFor(result.position, ['transaction-list'])).toBe(
      true,
    );
  };

  const seed = async (p: TestPartner, s: Seed): Promise<string> => {
    const id = randomUUID();
    tx[s.key] = id;
    const initiatedAt = at(s.hours);
    const data: TransactionInitiated['data'] = {
      transactionId: id,
      partnerId: p.id,
      merchantId: s.merchant,
      type: s.type,
      rail: s.rail,
      amountMinor: s.amountMinor,
      currency: 'USD',
      surchargeMinor: '0',
      convenienceFeeMinor: '0',
      taxMinor: null,
      entryMode: 'KEYED',
      useType: s.parent ? null : 'ONE_TIME_FUTURE',
      storedCredentialId: null,
      vaultToken: null,
      customerId: s.customerId ?? null,
      parentTransactionId: s.parent ?? null,
      card: s.card ?? null,
      bank: s.bank ?? null,
      secCode: s.rail === 'ACH' ? 'WEB' : null,
      customFields: [],
      level2Data: null,
      level3Data: null,
      refundReason: s.type === 'PARTIAL_REFUND' ? 'customer_requested' : null,
      reversalReason: null,
      convenienceFeeDisclosure: null,
      surchargeDisclosure: null,
      source: 'api',
      initiatedAt,
    };
    const events: TransactionEvent[] = [{ type: 'TransactionInitiated', data }];
    const answeredAt = new Date(Date.parse(initiatedAt) + 800).toISOString();
    if (s.outcome === 'approved') {
      events.push({
        type: 'TransactionApproved',
        data: {
          transactionId: id,
          approvalCode: s.approvalCode ?? null,
          gatewayTransactionId: s.gatewayId ?? null,
          avsResponseCode: s.rail === 'CARD' ? 'Y' : null,
          cvResponseCode: s.rail === 'CARD' ? 'M' : null,
          effectiveDate: s.rail === 'ACH' ? initiatedAt.slice(0, 10) : null,
          at: answeredAt,
        },
      });
    } else if (s.outcome === 'declined') {
      const code = s.declineCode ?? 'insufficient_funds';
      events.push({
        type: 'TransactionDeclined',
        data: {
          transactionId: id,
          declineCode: code,
          declineReason: DECLINE_REASONS[code],
          avsResponseCode: null,
          cvResponseCode: null,
          at: answeredAt,
        },
      });
    }
    await append(p.id, id, events, true);
    return id;
  };

  const visa = (last4: string): CardSnapshot => ({
    brand: 'VISA',
    last4,
    expMonth: 12,
    expYear: 2030,
    funding: 'credit',
  });

  beforeAll(async () => {
    [partner, other] = await Promise.all([
      platform().newPartner(),
      platform().newPartner({ name: 'Other Co' }),
    ]);
    m1 = await newMerchant(partner, 'Blue Bottle Cafe');
    m2 = await newMerchant(partner, '=Evil, "Corp"');
    otherMerchant = await newMerchant(other, 'Other Merchant');
    // Oldest first; the list shows them the other way round.
    await seed(partner, {
      key: 's1',
      merchant: m1,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '1000',
      hours: 0,
      outcome: 'approved',
      gatewayId: 'sbx_Alpha0001',
      approvalCode: 'AP0001',
      card: visa('1111'),
      customerId: customer,
    });
    await seed(partner, {
      key: 's2',
      merchant: m1,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '2550',
      hours: 1,
      outcome: 'declined',
      card: visa('0002'),
    });
    await seed(partner, {
      key: 'a1',
      merchant: m2,
      type: 'ACH_DEBIT',
      rail: 'ACH',
      amountMinor: '10000',
      hours: 2,
      outcome: 'approved',
      gatewayId: 'sbx_Bravo2',
      bank: { accountType: 'CHECKING', accountLast4: '6789', routingLast4: '0015' },
    });
    await seed(partner, {
      key: 'a2',
      merchant: m1,
      type: 'ACH_DEBIT',
      rail: 'ACH',
      amountMinor: '4200',
      hours: 3,
      outcome: 'declined',
      declineCode: 'invalid_account_number',
      bank: { accountType: 'SAVINGS', accountLast4: '0015', routingLast4: '0021' },
    });
    // s1 settles, then a partial refund of $3.00 is granted and approved.
    await append(
      partner.id,
      tx.s1,
      [
        {
          type: 'TransactionSettled',
          data: { transactionId: tx.s1, batchId: randomUUID(), settledAt: at(3.5) },
        },
      ],
      false,
    );
    const r1 = await seed(partner, {
      key: 'r1',
      merchant: m1,
      type: 'PARTIAL_REFUND',
      rail: 'CARD',
      amountMinor: '300',
      hours: 4,
      outcome: 'approved',
      gatewayId: 'sbx_Charlie3',
      card: visa('1111'),
      customerId: customer,
      parent: tx.s1,
    });
    await append(
      partner.id,
      tx.s1,
      [
        {
          type: 'TransactionRefunded',
          data: {
            transactionId: tx.s1,
            refundTransactionId: r1,
            amountMinor: '300',
            surchargeReversedMinor: '0',
            at: at(4),
          },
        },
      ],
      false,
    );
    await seed(partner, {
      key: 's3',
      merchant: m2,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '123456',
      hours: 5,
      outcome: 'approved',
      gatewayId: 'SBX_delta_9',
      approvalCode: 'AP0003',
      card: visa('7777'),
    });
    await seed(partner, {
      key: 's4',
      merchant: m1,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '777',
      hours: 6,
      outcome: 'pending',
      card: visa('4444'),
    });
    await seed(other, {
      key: 'b1',
      merchant: otherMerchant,
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '1000',
      hours: 0,
      outcome: 'approved',
      gatewayId: 'sbx_Alpha0002',
      card: visa('1111'),
    });
  }, 60_000);

  const list = (query = '', p = partner) => p.client.get(`/transactions${query ? `?${query}` : ''}`);
  const keysOf = (res: ApiResponse) => {
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(Object.entries(tx).map(([k, v]) => [v, k]));
    return res.body.data.map((item: any) => byId[item.id] ?? item.id);
  };
  const listed = async (query: string, p = partner) => keysOf(await list(query, p));
  const NEWEST_FIRST = ['s4', 's3', 'r1', 'a2', 'a1', 's2', 's1'];

  describe('GET /transactions', () => {
    it('lists the partner’s transactions newest first, each with every list-item field', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(NEWEST_FIRST);
      expect(res.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 7 });
      for (const item of res.body.data)
        expect(Object.keys(item).sort()).toEqual([...LIST_ITEM_FIELDS].sort());
      const item = (key: string) => res.body.data.find((i: any) => i.id === tx[key]);
      expect(item('s1')).toEqual({
        id: tx.s1,
        merchant_id: m1,
        merchant_name: 'Blue Bottle Cafe',
        type: 'SALE',
        rail: 'CARD',
        amount: 1000,
        currency: 'USD',
        state: 'PARTIALLY_REFUNDED',
        approval_code: 'AP0001',
        decline_code: null,
        decline_reason: null,
        card_last4: '1111',
        routing_last4: null,
        account_last4: null,
        account_type: null,
        customer_id: customer,
        created_at: at(0),
      });
      expect(item('a2')).toEqual({
        id: tx.a2,
        merchant_id: m1,
        merchant_name: 'Blue Bottle Cafe',
        type: 'ACH_DEBIT',
        rail: 'ACH',
        amount: 4200,
        currency: 'USD',
        state: 'FAILED',
        approval_code: null,
        decline_code: 'invalid_account_number',
        decline_reason: DECLINE_REASONS.invalid_account_number,
        card_last4: null,
        routing_last4: '0021',
        account_last4: '0015',
        account_type: 'SAVINGS',
        customer_id: null,
        created_at: at(3),
      });
      expect(item('a1')).toMatchObject({ merchant_name: '=Evil, "Corp"', state: 'SUBMITTED', amount: 10000 });
      expect(item('r1')).toMatchObject({ type: 'PARTIAL_REFUND', state: 'CAPTURED', amount: 300 });
      expect(item('s4')).toMatchObject({ state: 'INITIATED', amount: 777 });
    });

    it('each filter, and filters together', async () => {
      expect(await listed(`merchant_id=${m1}`)).toEqual(['s4', 'r1', 'a2', 's2', 's1']);
      expect(await listed(`merchant_id=${m2.toUpperCase()}`)).toEqual(['s3', 'a1']);
      expect(await listed('state=FAILED')).toEqual(['a2', 's2']);
      expect(await listed('state=SETTLED')).toEqual([]);
      expect(await listed('type=SALE')).toEqual(['s4', 's3', 's2', 's1']);
      expect(await listed('type=PARTIAL_REFUND')).toEqual(['r1']);
      expect(await listed('rail=ACH')).toEqual(['a2', 'a1']);
      expect(await listed('rail=CARD')).toEqual(['s4', 's3', 'r1', 's2', 's1']);
      // Inclusive bounds, any offset.
      expect(await listed(`created_from=${at(2)}&created_to=${at(4)}`)).toEqual(['r1', 'a2', 'a1']);
      expect(await listed(`created_from=${encodeURIComponent('2026-11-01T14:00:00+02:00')}`)).toEqual([
        's4',
        's3',
        'r1',
        'a2',
        'a1',
      ]);
      expect(await listed(`created_to=${encodeURIComponent('2026-11-01T10:59:59.999-00:00')}`)).toEqual([
        's1',
      ]);
      // Dollars, inclusive, against minor units.
      expect(await listed('amount_min=10&amount_max=100')).toEqual(['a2', 'a1', 's2', 's1']);
      expect(await listed('amount_min=42')).toEqual(['s3', 'a2', 'a1']);
      expect(await listed('amount_min=42.01')).toEqual(['s3', 'a1']);
      expect(await listed('amount_max=7.77')).toEqual(['s4', 'r1']);
      expect(await listed('amount_min=1234.56&amount_max=1234.56')).toEqual(['s3']);
      // Together.
      expect(await listed('rail=CARD&state=CAPTURED')).toEqual(['s3', 'r1']);
      expect(await listed(`merchant_id=${m1}&type=SALE&amount_min=10`)).toEqual(['s2', 's1']);
      expect(await listed('q=sbx&rail=ACH')).toEqual(['a1']);
      expect(await listed(`type=SALE&created_from=${at(1)}&amount_max=25.50&state=FAILED`)).toEqual(['s2']);
      const filtered = await list('state=FAILED');
      expect(filtered.body.pagination.total_count).toBe(2);
    });

    it('search: gateway id substring (any case), UUID on ids, four digits on ACH last fours', async () => {
      expect(await listed('q=alpha')).toEqual(['s1']); // the other partner's sbx_Alpha0002 is not seen
      expect(await listed('q=ALPHA0001')).toEqual(['s1']);
      expect(await listed('q=sbx_delta')).toEqual(['s3']);
      expect(await listed(`q=${encodeURIComponent('  bravo  ')}`)).toEqual(['a1']);
      expect(await listed('q=_')).toEqual(['s3', 'r1', 'a1', 's1']); // a literal underscore
      expect(await listed('q=%25')).toEqual([]); // a literal percent sign
      expect(await listed(`q=${tx.s2.toUpperCase()}`)).toEqual(['s2']);
      expect(await listed(`q=${m2}`)).toEqual(['s3', 'a1']);
      expect(await listed('q=0015')).toEqual(['a2', 'a1']); // account last four of a2, routing of a1
      expect(await listed('q=0021')).toEqual(['a2']);
      expect(await listed('q=015')).toEqual([]);
      // Not searched: card last four, amount, state, type.
      expect(await listed('q=7777')).toEqual([]);
      expect(await listed('q=1234.56')).toEqual([]);
      expect(await listed('q=123456')).toEqual([]);
      expect(await listed('q=CAPTURED')).toEqual([]);
      expect(await listed('q=SALE')).toEqual([]);
      // Another partner's ids find nothing.
      expect(await listed(`q=${tx.b1}`)).toEqual([]);
      expect(await listed(`q=${otherMerchant}`)).toEqual([]);
      // Search and filters together.
      expect(await listed('q=0015&state=SUBMITTED')).toEqual(['a1']);
      expect(await listed(`q=${'x'.repeat(200)}`)).toEqual([]);
    });

    it('pages under filters with a cursor bound to them', async () => {
      const seen: string[] = [];
      let query = `merchant_id=${m1}&page_size=2`;
      let pages = 0;
      for (;;) {
        const res = await list(query);
        expect(res.status).toBe(200);
        expect(res.body.pagination.total_count).toBe(5);
        seen.push(...keysOf(res));
        pages += 1;
        if (!res.body.pagination.has_more) {
          expect(res.body.pagination.next_cursor).toBeNull();
          break;
        }
        expect(res.body.data).toHaveLength(2);
        expect(res.body.pagination.next_cursor.length).toBeLessThanOrEqual(256);
        query = `merchant_id=${m1}&page_size=2&cursor=${res.body.pagination.next_cursor}`;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(['s4', 'r1', 'a2', 's2', 's1']);

      const first = await list(`q=${'sbx'.repeat(60)}&page_size=1`);
      expect(first.body.pagination.next_cursor).toBeNull();
      const page1 = await list('q=sbx&page_size=1');
      const cursor = page1.body.pagination.next_cursor;
      expect(cursor.length).toBeLessThanOrEqual(256);
      expect(keysOf(await list(`q=sbx&page_size=1&cursor=${cursor}`))).toEqual(['r1']);
      // The same cursor with other filters, without them, or by another partner: 400.
      expectValidationError(await list(`q=sbx&state=CAPTURED&page_size=1&cursor=${cursor}`), ['cursor']);
      expectValidationError(await list(`page_size=1&cursor=${cursor}`), ['cursor']);
      expectValidationError(await list(`q=sbx&page_size=1&cursor=${cursor}`, other), ['cursor']);
      expectValidationError(await list('page_size=0'), ['page_size']);
      expectValidationError(await list('page_size=101'), ['page_size']);
      expectValidationError(await list(`cursor=${'x'.repeat(257)}`), ['cursor']);
    });

    it('shows the merchant’s current name', async () => {
      const renamed = await partner.client.patch(`/merchants/${m1}`, { business_name: 'Blue Bottle Coffee' });
      expect(renamed.status).toBe(200);
      const res = await list(`merchant_id=${m1}&page_size=1`);
      expect(res.body.data[0].merchant_name).toBe('Blue Bottle Coffee');
      await partner.client.patch(`/merchants/${m1}`, { business_name: 'Blue Bottle Cafe' });
    });

    it('total_count stays the true count as transactions come in, for the list and for each merchant', async () => {
      const counted = await platform().newPartner({ name: 'Counted Co' });
      const [ma, mb, mc] = [
        await newMerchant(counted, 'Counted A'),
        await newMerchant(counted, 'Counted B'),
        await newMerchant(counted, 'Counted C'),
      ];
      const totals = async () => {
        const totalOf = async (query: string) => {
          const res = await list(`page_size=100${query}`, counted);
          expect(res.status).toBe(200);
          expect(res.body.data).toHaveLength(res.body.pagination.total_count);
          return res.body.pagination.total_count;
        };
        return {
          all: await totalOf(''),
          a: await totalOf(`&merchant_id=${ma}`),
          b: await totalOf(`&merchant_id=${mb}`),
          c: await totalOf(`&merchant_id=${mc}`),
        };
      };
      const sale = (key: string, merchant: string, hours: number, outcome: Seed['outcome']) =>
        seed(counted, {
          key,
          merchant,
          type: 'SALE',
          rail: 'CARD',
          amountMinor: '500',
          hours,
          outcome,
          gatewayId: outcome === 'approved' ? `sbx_${key}` : null,
          card: visa('4242'),
        });
      expect(await totals()).toEqual({ all: 0, a: 0, b: 0, c: 0 });
      await sale('c1', ma, 10, 'approved');
      await sale('c2', mb, 11, 'declined');
      await sale('c3', ma, 12, 'pending');
      expect(await totals()).toEqual({ all: 3, a: 2, b: 1, c: 0 });
      // Later events of a listed transaction update its row and count nothing.
      await append(
        counted.id,
        tx.c3,
        [
          {
            type: 'TransactionApproved',
            data: {
              transactionId: tx.c3,
              approvalCode: 'AP0C3',
              gatewayTransactionId: 'sbx_c3',
              avsResponseCode: 'Y',
              cvResponseCode: 'M',
              effectiveDate: null,
              at: at(12.1),
            },
          },
        ],
        false,
      );
      await append(
        counted.id,
        tx.c1,
        [
          {
            type: 'TransactionSettled',
            data: { transactionId: tx.c1, batchId: randomUUID(), settledAt: at(13) },
          },
        ],
        false,
      );
      expect(await totals()).toEqual({ all: 3, a: 2, b: 1, c: 0 });
      await sale('c4', mb, 14, 'approved');
      await sale('c5', mc, 15, 'approved');
      expect(await totals()).toEqual({ all: 5, a: 2, b: 2, c: 1 });
      expect(await listed(`merchant_id=${ma}`, counted)).toEqual(['c3', 'c1']);
      // Other filters still count the rows.
      expect((await list('state=CAPTURED', counted)).body.pagination.total_count).toBe(3);
      expect((await list(`merchant_id=${mb}&state=FAILED`, counted)).body.pagination.total_count).toBe(1);
      // Nobody else's totals moved.
      expect((await list()).body.pagination.total_count).toBe(7);
      expect((await list(`merchant_id=${m1}`)).body.pagination.total_count).toBe(5);
      expect((await list('', other)).body.pagination.total_count).toBe(1);
    });

    it('a created range lists exactly the transactions in it, bounds included, in any created order', async () => {
      const ranged = await platform().newPartner({ name: 'Ranged Co' });
      const [ma, mb] = [await newMerchant(ranged, 'Ranged A'), await newMerchant(ranged, 'Ranged B')];
      // Created (hours) out of the order they were recorded in, which is the list's order.
      const plan: [string, string, number, Seed['outcome']][] = [
        ['d1', ma, 30, 'approved'],
        ['d2', mb, 20, 'declined'],
        ['d3', ma, 40, 'approved'],
        ['d4', ma, 20, 'approved'],
        ['d5', mb, 25, 'approved'],
        ['d6', ma, 19.999, 'approved'],
        ['d7', mb, 40.001, 'declined'],
      ];
      for (const [key, merchant, hours, outcome] of plan) {
        await seed(ranged, {
          key,
          merchant,
          type: 'SALE',
          rail: 'CARD',
          amountMinor: String(1000 + Math.round(hours * 10)),
          hours,
          outcome,
          gatewayId: outcome === 'approved' ? `sbx_range_${key}` : null,
          card: visa('4242'),
        });
      }
      const range = (from: number | null, to: number | null, more = '') =>
        [from === null ? '' : `created_from=${at(from)}`, to === null ? '' : `created_to=${at(to)}`, more]
          .filter(Boolean)
          .join('&');
      const inRange = async (query: string) => {
        const res = await list(query, ranged);
        expect(res.status).toBe(200);
        return { keys: keysOf(res), total: res.body.pagination.total_count };
      };
      expect(await inRange(range(20, 40))).toEqual({ keys: ['d5', 'd4', 'd3', 'd2', 'd1'], total: 5 });
      expect(await inRange(range(20, 20))).toEqual({ keys: ['d4', 'd2'], total: 2 });
      expect(await inRange(range(19.999, 40.001))).toEqual({
        keys: ['d7', 'd6', 'd5', 'd4', 'd3', 'd2', 'd1'],
        total: 7,
      });
      expect(await inRange(range(25, 30))).toEqual({ keys: ['d5', 'd1'], total: 2 });
      expect(await inRange(range(40, null))).toEqual({ keys: ['d7', 'd3'], total: 2 });
      expect(await inRange(range(null, 20))).toEqual({ keys: ['d6', 'd4', 'd2'], total: 3 });
      expect(await inRange(range(41, null))).toEqual({ keys: [], total: 0 });
      expect(await inRange(range(26, 29))).toEqual({ keys: [], total: 0 });
      // With other filters.
      expect(await inRange(range(20, 40, `merchant_id=${mb}`))).toEqual({ keys: ['d5', 'd2'], total: 2 });
      expect(await inRange(range(20, 40, 'state=FAILED'))).toEqual({ keys: ['d2'], total: 1 });
      expect(await inRange(range(20, 30, 'amount_min=12.01'))).toEqual({ keys: ['d5', 'd1'], total: 2 });
      expect(await inRange(range(20, 40, 'q=sbx_range'))).toEqual({
        keys: ['d5', 'd4', 'd3', 'd1'],
        total: 4,
      });
      // Paged with a cursor, newest first.
      const seen: string[] = [];
      let query = range(20, 40, 'page_size=2');
      for (;;) {
        const res = await list(query, ranged);
        expect(res.body.pagination.total_count).toBe(5);
        seen.push(...keysOf(res));
        if (!res.body.pagination.has_more) break;
        query = range(20, 40, `page_size=2&cursor=${res.body.pagination.next_cursor}`);
      }
      expect(seen).toEqual(['d5', 'd4', 'd3', 'd2', 'd1']);
    });
  });

  describe('validation: every malformed filter is 400 naming the parameter', () => {
    const BAD: [string, string][] = [
      ['merchant_id', 'not-a-uuid'],
      ['merchant_id', ''],
      ['q', ''],
      ['q', '%20%20%20'],
      ['q', 'x'.repeat(201)],
      ['state', 'captured'],
      ['state', 'UNDER_REVIEW'],
      ['state', ''],
      ['type', 'PAYMENT'],
      ['type', ''],
      ['rail', 'WIRE'],
      ['rail', 'ach'],
      ['created_from', '2026-11-01'],
      ['created_from', '2026-11-01T10:00:00'],
      ['created_from', '2026-02-30T10:00:00Z'],
      ['created_from', 'now'],
      ['created_to', '1730000000'],
      ['created_to', ''],
      ['amount_min', '-1'],
      ['amount_min', '10.001'],
      ['amount_min', 'ten'],
      ['amount_max', '1e2'],
      ['amount_max', '10%2C00'],
      ['amount_max', ''],
    ];

    it.each(['', '/summary', '/export'])('GET /transactions%s', async (suffix) => {
      for (const [name, value] of BAD) {
        const res = await partner.client.get(`/transactions${suffix}?${name}=${value}`);
        expectValidationError(res, [name]);
      }
      const get = (query: string) => partner.client.get(`/transactions${suffix}?${query}`);
      expectValidationError(await get('state=FAILED&state=SETTLED'), ['state']);
      expectValidationError(await get('q=a&q=b'), ['q']);
      expectValidationError(await get('status=FAILED'), ['status']);
      expectValidationError(await get('merchant=x&amount=1'), ['merchant', 'amount']);
      expectValidationError(await get(`created_from=${at(2)}&created_to=${at(1)}`), ['created_from']);
      expectValidationError(await get('amount_min=10.01&amount_max=10'), ['amount_min']);
      expectValidationError(await get('rail=X&amount_min=-1&q='), ['rail', 'amount_min', 'q']);
      if (suffix) expectValidationError(await get('page_size=10&cursor=abc'), ['page_size', 'cursor']);
    });

    it('a merchant that is not the caller’s is 404 merchant_not_found', async () => {
      for (const suffix of ['', '/summary', '/export']) {
        expectProblem(
          await partner.client.get(`/transactions${suffix}?merchant_id=${otherMerchant}`),
          404,
          'merchant_not_found',
        );
        expectProblem(
          await other.client.get(`/transactions${suffix}?merchant_id=${m1}`),
          404,
          'merchant_not_found',
        );
      }
    });
  });

  describe('tenancy and access', () => {
    it('another partner sees only its own transactions, in list, summary and export', async () => {
      expect(await listed('', other)).toEqual(['b1']);
      expect(await listed(`q=${tx.s1}`, other)).toEqual([]);
      expect(await listed('q=alpha', other)).toEqual(['b1']);
      const summary = await other.client.get('/transactions/summary');
      expect(summary.body).toMatchObject({ count: 1, volume: '10.00' });
      const csv = parseCsv((await other.client.get('/transactions/export')).body);
      expect(csv.slice(1).map((r) => r[0])).toEqual([tx.b1]);
    });

    it('needs transaction:read', async () => {
      const limited = await platform().newPartner({ scopes: ['merchant:read'] });
      for (const suffix of ['', '/summary', '/export']) {
        expectProblem(await limited.client.get(`/transactions${suffix}`), 403, 'unauthorized');
      }
      expectProblem(await platform().as(null).get('/transactions/summary'), 401, 'unauthorized');
    });
  });

  describe('GET /transactions/summary', () => {
    const zero = { count: 0, amount: '0.00' };

    it('sums the known data set in SQL, money as decimal strings', async () => {
      const res = await partner.client.get('/transactions/summary');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        currency: 'USD',
        count: 7,
        approved_count: 3,
        declined_count: 2,
        approval_rate: '0.6000',
        volume: '1344.56',
        refunds: { count: 1, amount: '3.00' },
        net: '1341.56',
        by_state: expect.any(Object),
        by_type: expect.any(Object),
        by_rail: { CARD: { count: 5, amount: '1280.83' }, ACH: { count: 2, amount: '142.00' } },
      });
      expect(Object.keys(res.body.by_state)).toHaveLength(16);
      expect(res.body.by_state).toMatchObject({
        INITIATED: { count: 1, amount: '7.77' },
        CAPTURED: { count: 2, amount: '1237.56' },
        SUBMITTED: { count: 1, amount: '100.00' },
        PARTIALLY_REFUNDED: { count: 1, amount: '10.00' },
        FAILED: { count: 2, amount: '67.50' },
        SETTLED: zero,
        VERIFIED: zero,
      });
      expect(Object.keys(res.body.by_type)).toHaveLength(27);
      expect(res.body.by_type).toMatchObject({
        SALE: { count: 4, amount: '1277.83' },
        ACH_DEBIT: { count: 2, amount: '142.00' },
        PARTIAL_REFUND: { count: 1, amount: '3.00' },
        REFUND: zero,
      });
    });

    it('takes the same filters', async () => {
      const m2Summary = await partner.client.get(`/transactions/summary?merchant_id=${m2}`);
      expect(m2Summary.body).toMatchObject({
        count: 2,
        approved_count: 2,
        declined_count: 0,
        approval_rate: '1.0000',
        volume: '1334.56',
        refunds: { count: 0, amount: '0.00' },
        net: '1334.56',
      });
      const none = await partner.client.get('/transactions/summary?q=no-such-transaction');
      expect(none.body).toMatchObject({
        currency: 'USD',
        count: 0,
        approved_count: 0,
        declined_count: 0,
        approval_rate: null,
        volume: '0.00',
        refunds: zero,
        net: '0.00',
      });
      const refunds = await partner.client.get('/transactions/summary?type=PARTIAL_REFUND');
      expect(refunds.body).toMatchObject({ count: 1, approval_rate: null, volume: '0.00', net: '-3.00' });
    });
  });

  describe('GET /transactions/export', () => {
    it('is an RFC 4180 CSV attachment of the list items, amount in dollars, newest first', async () => {
      const res = await platform().service.call('GET', '/api/v1/transactions/export', {
        headers: { authorization: `Bearer ${partner.key}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="transactions.csv"');
      const text = await res.text();
      expect(text.replace(/"[^"]*"/g, '').includes('\n')).toBe(text.replace(/"[^"]*"/g, '').includes('\r\n'));
      expect(/[^\r]\n/.test(text.replace(/"(?:[^"]|"")*"/g, ''))).toBe(false);
      const [header, ...rows] = parseCsv(text);
      expect(header).toEqual(LIST_ITEM_FIELDS);
      const byId = Object.fromEntries(Object.entries(tx).map(([k, v]) => [v, k]));
      expect(rows.map((r) => byId[r[0]])).toEqual(NEWEST_FIRST);
      const record = (key: string) =>
        Object.fromEntries(header.map((h, i) => [h, rows.find((r) => r[0] === tx[key])![i]]));
      expect(record('s3')).toEqual({
        id: tx.s3,
        merchant_id: m2,
        merchant_name: `'=Evil, "Corp"`,
        type: 'SALE',
        rail: 'CARD',
        amount: '1234.56',
        currency: 'USD',
        state: 'CAPTURED',
        approval_code: 'AP0003',
        decline_code: '',
        decline_reason: '',
        card_last4: '7777',
        routing_last4: '',
        account_last4: '',
        account_type: '',
        customer_id: '',
        created_at: at(5),
      });
      expect(record('s1')).toMatchObject({
        amount: '10.00',
        customer_id: customer,
        merchant_name: 'Blue Bottle Cafe',
      });
      expect(record('r1')).toMatchObject({ amount: '3.00' });
      expect(record('a2')).toMatchObject({
        amount: '42.00',
        decline_reason: DECLINE_REASONS.invalid_account_number,
        routing_last4: '0021',
        account_last4: '0015',
        account_type: 'SAVINGS',
      });
      // The formula cell is quoted with its leading quote inside: `"'=Evil, ""Corp"""`.
      expect(text).toContain(`,"'=Evil, ""Corp""",`);
    });

    it('takes the list’s filters', async () => {
      const csv = parseCsv((await partner.client.get('/transactions/export?state=FAILED')).body);
      expect(csv.slice(1).map((r) => r[0])).toEqual([tx.a2, tx.s2]);
      const empty = parseCsv((await partner.client.get('/transactions/export?q=nothing')).body);
      expect(empty).toEqual([LIST_ITEM_FIELDS]);
    });
  });

  it('transactions made through POST /transactions are listed a moment later, searchable and summarised', async () => {
    const live = await platform().newPartner({ name: 'Live Co' });
    expect((await live.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status).toBe(
      200,
    );
    const merchant = await activeMerchant(platform().operator, live, 'Live Cafe');
    const card = await vaultedCredential(platform(), live, merchant);
    const bank = await vaultedCredential(platform(), live, merchant, { instrument: CHECKING });
    const charge = (body: Record<string, unknown>) =>
      live.client.post('/transactions', {
        merchant_id: merchant,
        currency: 'USD',
        use_type: 'ONE_TIME_FUTURE',
        ...body,
      });
    const sale = await charge({ type: 'SALE', amount: '12.34', vault_token: card.vaultToken });
    expect(sale.body.state).toBe('CAPTURED');
    // The list catches up with the answer a moment later (eventually consistent, like a search).
    // The row appears with TransactionInitiated and moves to CAPTURED with the gateway's answer.
    const first = await eventually(
      () => list('', live),
      (res) => res.body.data[0]?.state === 'CAPTURED',
    );
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0]).toMatchObject({
      id: sale.body.id,
      merchant_id: merchant,
      merchant_name: 'Live Cafe',
      type: 'SALE',
      rail: 'CARD',
      amount: 1234,
      state: 'CAPTURED',
      card_last4: '1111',
      created_at: sale.body.created_at,
    });
    const declined = await charge({ type: 'SALE', amount: '10.05', vault_token: card.vaultToken });
    expect(declined.body.state).toBe('FAILED');
    const debit = await charge({ type: 'ACH_DEBIT', amount: '20.00', vault_token: bank.vaultToken });
    expect(debit.body.state).toBe('SUBMITTED');

    const all = await eventually(
      () => list('', live),
      (res) => res.body.data.length === 3 && res.body.data.every((i: any) => i.state !== 'INITIATED'),
    );
    expect(all.body.data.map((i: any) => i.id)).toEqual([debit.body.id, declined.body.id, sale.body.id]);
    expect((await list('state=FAILED', live)).body.data[0]).toMatchObject({
      id: declined.body.id,
      decline_code: 'insufficient_funds',
      decline_reason: DECLINE_REASONS.insufficient_funds,
    });
    const {
      rows: [{ gateway_transaction_id: gatewayId }],
    } = await platform().service.infra.pool.query(
      'select gateway_transaction_id from transaction_list where id = $1',
      [sale.body.id],
    );
    expect(gatewayId).toEqual(expect.any(String));
    const middle = gatewayId.slice(2, -2).toUpperCase();
    expect((await list(`q=${encodeURIComponent(middle)}`, live)).body.data.map((i: any) => i.id)).toEqual([
      sale.body.id,
    ]);
    for (const lastFour of ['0015', '6789']) {
      expect((await list(`q=${lastFour}`, live)).body.data.map((i: any) => i.id)).toEqual([debit.body.id]);
    }
    expect((await live.client.get('/transactions/summary')).body).toMatchObject({
      count: 3,
      approved_count: 2,
      declined_count: 1,
      approval_rate: '0.6667',
      volume: '32.34',
      net: '32.34',
    });
  });

  it('/transactions/summary and /transactions/export are not taken for a transaction id', async () => {
    const read = await partner.client.get(`/transactions/${tx.s1}`);
    expect(read.status).toBe(200); // the single-transaction read, from the same events
    expect(read.body).toMatchObject({ id: tx.s1, state: 'PARTIALLY_REFUNDED', amount: '10.00' });
    expect((await partner.client.get('/transactions/summary')).body).toHaveProperty('by_state');
    expect((await partner.client.get('/transactions/export')).headers.get('content-type')).toMatch(
      /^text\/csv/,
    );
  });

  it('the transaction-list read model rebuilds from the events and agrees with the list before', async () => {
    const before = await list();
    const merchantTotals = async () => ({
      m1: (await list(`merchant_id=${m1}&page_size=1`)).body.pagination.total_count,
      m2: (await list(`merchant_id=${m2}&page_size=1`)).body.pagination.total_count,
      other: (await list('', other)).body.pagination.total_count,
    });
    expect(await merchantTotals()).toEqual({ m1: 5, m2: 2, other: 1 });
    const { pool } = platform().service.infra;
    /** The stored counts next to the rows' own, per partner and merchant and per partner. */
    const counts = async () => {
      const { rows } = await pool.query(
        `select c.partner_id, c.merchant_id, c.count::int as stored, coalesce(r.count, 0)::int as rows
           from transaction_list_counts c
           full join (select partner_id, merchant_id, count(*) from transaction_list group by 1, 2
                      union all
                      select partner_id, '00000000-0000-0000-0000-000000000000', count(*)
                        from transaction_list group by 1) r
             on r.partner_id = c.partner_id and r.merchant_id = c.merchant_id
          order by 1, 2`,
      );
      return rows;
    };
    const countsBefore = await counts();
    for (const c of countsBefore) expect(c.stored).toBe(c.rows);
    // Counts lost (deleted by hand here): the totals are wrong until the rebuild counts the rows again.
    await pool.query('delete from transaction_list_counts where partner_id = $1', [partner.id]);
    expect((await list()).body.pagination.total_count).toBe(0);
    const rebuild = await platform().operator.post('/platform/projections/transaction-list/rebuild');
    expect(rebuild.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let state = 'rebuilding';
    while (state === 'rebuilding' && Date.now() < deadline) {
      expect((await list()).status).toBe(200);
      const status = await platform().operator.get('/platform/projections');
      state = status.body.data.find((p: any) => p.name === 'transaction-list').state;
      if (state === 'rebuilding') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(state).toBe('running');
    expect((await list()).body).toEqual(before.body);
    expect(await merchantTotals()).toEqual({ m1: 5, m2: 2, other: 1 });
    expect(await counts()).toEqual(countsBefore);
    expect(await listed('q=alpha')).toEqual(['s1']);
  });

  it('streams a 200,000-row export in constant memory', async () => {
    const bulk = await platform().newPartner({ name: 'Bulk Co' });
    const merchant = await newMerchant(bulk, 'Bulk Merchant');
    const ROWS = 200_000;
    // Straight into the read model, in one statement (ids ascending keep the insert cheap).
    const { pool } = platform().service.infra;
    const idPrefix = randomUUID().slice(0, 23);
    await pool.query(
      `insert into transaction_list (id, partner_id, merchant_id, type, rail, state, amount_minor, currency,
         gateway_transaction_id, approval_code, decline_code, decline_reason, card_last4, routing_last4,
         account_last4, account_type, customer_id, parent_transaction_id, created_at, created_position, version,
         snapshot)
       select ($4 || '-' || lpad(to_hex(g), 12, '0'))::uuid, $1, $2, 'SALE', 'CARD', 'CAPTURED', 100 + g, 'USD',
              'sbx_bulk_' || g, 'A' || g, null, null, lpad((g % 10000)::text, 4, '0'), null, null, null, null, null,
              timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second', 1000000000 + g, 2, '{}'::jsonb
         from generate_series(1, $3::int) g`,
      [bulk.id, merchant, ROWS, idPrefix],
    );
    await pool.query('analyze transaction_list'); // as autovacuum would after a load this size

    // What the process keeps (after a full collection): the JS heap and the buffers outside it,
    // sampled while the export streams.
    const gc = collector();
    const retained = () => {
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const heapBefore = retained();
    const rssBefore = process.memoryUsage().rss;
    let heapPeak = heapBefore;
    let rssPeak = rssBefore;
    const res = await platform().service.call('GET', '/api/v1/transactions/export', {
      headers: { authorization: `Bearer ${bulk.key}` },
    });
    expect(res.status).toBe(200);
    let count = 0;
    let first: string[] = [];
    let last: string[] = [];
    const reader = new CsvReader((record) => {
      count += 1;
      if (count === 2) first = record;
      last = record;
    });
    const decoder = new TextDecoder();
    const body = res.body!.getReader();
    for (let chunks = 1; ; chunks += 1) {
      const { done, value } = await body.read();
      if (done) break;
      reader.feed(decoder.decode(value, { stream: true }));
      if (chunks % 50 === 0) heapPeak = Math.max(heapPeak, retained());
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    reader.feed(decoder.decode());
    reader.end();
    const heapAfter = retained();
    expect(count).toBe(ROWS + 1);
    expect(first.slice(2, 8)).toEqual(['Bulk Merchant', 'SALE', 'CARD', '2001.00', 'USD', 'CAPTURED']);
    expect(last.slice(2, 8)).toEqual(['Bulk Merchant', 'SALE', 'CARD', '1.01', 'USD', 'CAPTURED']);
    expect(last[16]).toBe('2026-01-01T00:00:01.000Z');
    // The CSV is about 40 MB; a server that held it, or its rows as objects, would be far above
    // these bounds (measured: well under 1 MB kept while streaming).
    expect(heapPeak - heapBefore).toBeLessThan(16 * 1024 * 1024);
    expect(heapAfter - heapBefore).toBeLessThan(8 * 1024 * 1024);
    expect(rssPeak - rssBefore).toBeLessThan(256 * 1024 * 1024);
  }, 60_000);
});
