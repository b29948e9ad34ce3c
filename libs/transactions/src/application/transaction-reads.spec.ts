import type { Readable } from 'node:stream';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { MerchantList1764100000000 } from '../../../../projections/merchant-list/1764100000000-merchant-list.migration';
import { TransactionList1764420000000 } from '../../../../projections/transaction-list/1764420000000-transaction-list.migration';
import { TransactionListCounts1764420000001 } from '../../../../projections/transaction-list/1764420000001-transaction-list-counts.migration';
import { TransactionListMoney1764420000002 } from '../../../../projections/transaction-list/1764420000002-transaction-list-money.migration';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { createDataSource, runMigrations } from '../../../platform/src/database/data-source';
import { ProblemException } from '../../../platform/src/problem/problem.filter';
import { PROJECTION_ENGINE_ENTITIES, PROJECTION_ENGINE_MIGRATIONS } from '../../../projections/src';
import {
  filterScope,
  parseInstant,
  parseTransactionFilters,
  type TransactionFilters,
} from '../wire/transaction-filters';
import { CSV_HEADER, csvCell } from '../wire/transactions-csv';
import { TransactionExport } from './export-transactions';
import { TransactionList } from './list-transactions';
import { ALL_MERCHANTS, countedByProjector, createdSpan } from './transaction-list-sql';
import { ratio4, summaryOutcome, TransactionSummaries } from './transaction-summary';

const PARTNER = '11111111-1111-4111-8111-111111111111';
const OTHER_PARTNER = '99999999-9999-4999-8999-999999999999';
const MERCHANT = '22222222-2222-4222-8222-222222222222';
const MERCHANT_2 = '44444444-4444-4444-8444-444444444444';

/** The `errors` of the 400 a parse throws, as `field: message` pairs. */
function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProblemException) {
      expect(error.body.status).toBe(400);
      return (error.body.errors ?? []).map((e) => e.field).sort();
    }
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('parseTransactionFilters', () => {
  const parse = (query: Record<string, unknown>) => parseTransactionFilters(query, 'list');

  it('no parameters: no filters', () => {
    expect(parse({})).toEqual({
      merchantId: null,
      search: null,
      state: null,
      type: null,
      rail: null,
      createdFrom: null,
      createdTo: null,
      amountMinMinor: null,
      amountMaxMinor: null,
    });
  });

  it('reads every filter', () => {
    expect(
      parse({
        merchant_id: MERCHANT.toUpperCase(),
        q: '  sbx_ab  ',
        state: 'CAPTURED',
        type: 'SALE',
        rail: 'CARD',
        created_from: '2026-11-01T00:00:00Z',
        created_to: '2026-11-01T12:30:00.5+02:00',
        amount_min: '10',
        amount_max: '10.5',
        cursor: 'x',
        page_size: '10',
      }),
    ).toEqual({
      merchantId: MERCHANT,
      search: { text: 'sbx_ab', uuid: null, lastFour: null },
      state: 'CAPTURED',
      type: 'SALE',
      rail: 'CARD',
      createdFrom: { iso: '2026-11-01T00:00:00.000000Z', epochNs: 1_793_491_200_000_000_000n },
      createdTo: { iso: '2026-11-01T10:30:00.500000Z', epochNs: 1_793_529_000_500_000_000n },
      amountMinMinor: 1000n,
      amountMaxMinor: 1050n,
    });
  });

  it('a UUID searches ids exactly; four digits search the ACH last fours', () => {
    expect(parse({ q: MERCHANT.toUpperCase() }).search).toEqual({
      text: MERCHANT.toUpperCase(),
      uuid: MERCHANT,
      lastFour: null,
    });
    expect(parse({ q: ' 0015 ' }).search).toEqual({ text: '0015', uuid: null, lastFour: '0015' });
    expect(parse({ q: '00150' }).search).toEqual({ text: '00150', uuid: null, lastFour: null });
  });

  it('search text: trimmed, 1 to 200 characters', () => {
    expect(parse({ q: 'x'.repeat(200) }).search?.text).toHaveLength(200);
    expect(parse({ q: ` ${'x'.repeat(200)} ` }).search?.text).toHaveLength(200);
    expect(fieldsOf(() => parse({ q: 'x'.repeat(201) }))).toEqual(['q']);
    expect(fieldsOf(() => parse({ q: '' }))).toEqual(['q']);
    expect(fieldsOf(() => parse({ q: '   ' }))).toEqual(['q']);
    expect(fieldsOf(() => parse({ q: 'a\u0000b' }))).toEqual(['q']);
  });

  it.each([
    ['merchant_id', 'not-a-uuid'],
    ['merchant_id', ''],
    ['state', 'captured'],
    ['state', 'UNKNOWN'],
    ['state', ''],
    ['type', 'REFUNDS'],
    ['rail', 'WIRE'],
    ['rail', 'card'],
    ['created_from', '2026-11-01'],
    ['created_from', '2026-11-01T00:00:00'],
    ['created_from', '2026-11-01 00:00:00Z'],
    ['created_from', '2026-02-30T00:00:00Z'],
    ['created_from', '2026-11-01T24:00:00Z'],
    ['created_from', '2026-11-01T00:00:60Z'],
    ['created_to', '2026-13-01T00:00:00Z'],
    ['created_to', '2026-11-01T00:00:00+2'],
    ['created_to', 'yesterday'],
    ['amount_min', '-1'],
    ['amount_min', '10.505'],
    ['amount_min', '1e3'],
    ['amount_min', '10,00'],
    ['amount_max', '$10'],
    ['amount_max', ' 10'],
    ['amount_max', '010'],
  ])('%s=%j is 400 naming it', (name, value) => {
    expect(fieldsOf(() => parse({ [name]: value }))).toEqual([name]);
  });

  it('accepts offsets, lower-case separators, leap days and fractions', () => {
    expect(parse({ created_from: '2028-02-29t23:59:59.999999999z' }).createdFrom?.iso).toBe(
      '2028-03-01T00:00:00.000000Z',
    );
    expect(parse({ created_to: '2028-02-29T23:59:59.999999999Z' }).createdTo?.iso).toBe(
      '2028-02-29T23:59:59.999999Z',
    );
    expect(parse({ created_from: '2026-11-01T00:00-05:30' }).createdFrom?.iso).toBe(
      '2026-11-01T05:30:00.000000Z',
    );
    expect(fieldsOf(() => parse({ created_from: '2027-02-29T00:00:00Z' }))).toEqual(['created_from']);
  });

  it('bounds in the wrong order are 400 naming the lower one', () => {
    expect(
      fieldsOf(() => parse({ created_from: '2026-11-02T00:00:00Z', created_to: '2026-11-01T23:59:59Z' })),
    ).toEqual(['created_from']);
    expect(fieldsOf(() => parse({ amount_min: '10.01', amount_max: '10' }))).toEqual(['amount_min']);
    expect(parse({ amount_min: '10', amount_max: '10.00' })).toMatchObject({
      amountMinMinor: 1000n,
      amountMaxMinor: 1000n,
    });
    expect(
      parse({ created_from: '2026-11-01T00:00:00Z', created_to: '2026-11-01T02:00:00+02:00' }).createdTo?.iso,
    ).toBe('2026-11-01T00:00:00.000000Z');
  });

  it('repeated and unknown parameters are 400; every problem is named at once', () => {
    expect(fieldsOf(() => parse({ state: ['CAPTURED', 'SETTLED'] }))).toEqual(['state']);
    expect(fieldsOf(() => parse({ merchant: MERCHANT, amount: '10' }))).toEqual(['amount', 'merchant']);
    expect(fieldsOf(() => parse({ q: '', rail: 'X', amount_max: '-2' }))).toEqual([
      'amount_max',
      'q',
      'rail',
    ]);
  });

  it('cursor and page_size belong to the list only', () => {
    expect(fieldsOf(() => parseTransactionFilters({ cursor: 'x', page_size: '5' }, 'summary'))).toEqual([
      'cursor',
      'page_size',
    ]);
    expect(fieldsOf(() => parseTransactionFilters({ page_size: '5' }, 'export'))).toEqual(['page_size']);
  });

  it('the cursor scope changes with the partner and with every filter, and stays short', () => {
    const base = parse({});
    const scopes = new Set(
      [
        filterScope(PARTNER, base),
        filterScope(OTHER_PARTNER, base),
        filterScope(PARTNER, parse({ merchant_id: MERCHANT })),
        filterScope(PARTNER, parse({ q: 'abc' })),
        filterScope(PARTNER, parse({ state: 'FAILED' })),
        filterScope(PARTNER, parse({ type: 'SALE' })),
        filterScope(PARTNER, parse({ rail: 'ACH' })),
        filterScope(PARTNER, parse({ created_from: '2026-11-01T00:00:00Z' })),
        filterScope(PARTNER, parse({ created_to: '2026-11-01T00:00:00Z' })),
        filterScope(PARTNER, parse({ amount_min: '1' })),
        filterScope(PARTNER, parse({ amount_max: '1' })),
      ].map((s) => s),
    );
    expect(scopes.size).toBe(11);
    expect(filterScope(PARTNER, parse({ q: 'x'.repeat(200) })).length).toBeLessThan(80);
    // The same instant spelled two ways is the same filter.
    expect(filterScope(PARTNER, parse({ created_to: '2026-11-01T02:00:00+02:00' }))).toBe(
      filterScope(PARTNER, parse({ created_to: '2026-11-01T00:00:00.000Z' })),
    );
  });
});

describe('parseInstant', () => {
  it('rounds a finer lower bound up and a finer upper bound down, to microseconds', () => {
    expect(parseInstant('2026-11-01T00:00:00.0000001Z', 'up')?.iso).toBe('2026-11-01T00:00:00.000001Z');
    expect(parseInstant('2026-11-01T00:00:00.0000001Z', 'down')?.iso).toBe('2026-11-01T00:00:00.000000Z');
    expect(parseInstant('1969-12-31T23:59:59.9999995Z', 'down')?.iso).toBe('1969-12-31T23:59:59.999999Z');
    expect(parseInstant('0001-01-01T00:00:00Z', 'down')?.iso).toBe('0001-01-01T00:00:00.000000Z');
    expect(parseInstant('0001-01-01T00:00:00+01:00', 'down')).toBeNull();
    expect(parseInstant('9999-12-31T23:59:59-01:00', 'down')).toBeNull();
  });
});

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('line\n')).toBe('"line\n"');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('neutralises a formula start: %j', (value) => {
    expect(csvCell(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
  });

  it('neutralises and escapes together', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });
});

describe('summary definitions', () => {
  it('an original counts once answered: approved in any state past the answer, declined when failed', () => {
    for (const type of ['SALE', 'ACH_DEBIT']) {
      expect(summaryOutcome(type, 'INITIATED')).toBeNull();
      expect(summaryOutcome(type, 'THREE_DS_PENDING')).toBeNull();
      expect(summaryOutcome(type, 'FAILED')).toBe('declined');
      expect(summaryOutcome(type, 'THREE_DS_FAILED')).toBe('declined');
      for (const state of [
        'CAPTURED',
        'SUBMITTED',
        'SETTLED',
        'VOIDED',
        'REFUNDED',
        'RETURNED',
        'CHARGED_BACK',
      ]) {
        expect(summaryOutcome(type, state)).toBe('approved');
      }
    }
  });

  it('refunds are accepted REFUND, PARTIAL_REFUND and ACH_REFUND children; other types count nowhere', () => {
    for (const type of ['REFUND', 'PARTIAL_REFUND', 'ACH_REFUND']) {
      expect(summaryOutcome(type, 'CAPTURED')).toBe('refund');
      expect(summaryOutcome(type, 'SETTLED')).toBe('refund');
      expect(summaryOutcome(type, 'SUBMITTED')).toBe('refund');
      expect(summaryOutcome(type, 'FAILED')).toBeNull();
      expect(summaryOutcome(type, 'INITIATED')).toBeNull();
    }
    for (const type of [
      'VOID',
      'AUTH_REVERSAL',
      'ACH_VOID',
      'ACH_REVERSAL',
      'AUTHORIZATION',
      'CARD_VERIFICATION',
    ]) {
      expect(summaryOutcome(type, 'VOIDED')).toBeNull();
      expect(summaryOutcome(type, 'CAPTURED')).toBeNull();
    }
  });

  it('ratio4 rounds half up to four decimals, exactly', () => {
    expect(ratio4(0n, 0n)).toBeNull();
    expect(ratio4(0n, 3n)).toBe('0.0000');
    expect(ratio4(19n, 20n)).toBe('0.9500');
    expect(ratio4(2n, 3n)).toBe('0.6667');
    expect(ratio4(1n, 3n)).toBe('0.3333');
    expect(ratio4(1n, 1n)).toBe('1.0000');
    expect(ratio4(1n, 80000n)).toBe('0.0000'); // 0.0000125
    expect(ratio4(1n, 20000n)).toBe('0.0001'); // 0.00005, half up
    expect(ratio4(9_007_199_254_740_993n, 9_007_199_254_740_994n)).toBe('1.0000');
  });
});

describe('list totals and created ranges', () => {
  const parse = (query: Record<string, unknown>) => parseTransactionFilters(query, 'list');

  it('the projector’s counter gives the total of the unfiltered and merchant-only lists only', () => {
    expect(countedByProjector(parse({}))).toBe(true);
    expect(countedByProjector(parse({ merchant_id: MERCHANT }))).toBe(true);
    for (const other of [
      { q: 'sbx' },
      { state: 'FAILED' },
      { type: 'SALE' },
      { rail: 'ACH' },
      { created_from: '2026-11-01T00:00:00Z' },
      { created_to: '2026-11-01T00:00:00Z' },
      { amount_min: '1' },
      { amount_max: '1' },
    ]) {
      expect(countedByProjector(parse(other))).toBe(false);
      expect(countedByProjector(parse({ merchant_id: MERCHANT, ...other }))).toBe(false);
    }
  });

  it('a created range bounds the page by the positions of the range, a search does not', () => {
    expect(createdSpan(parse({}), [PARTNER])).toBeNull();
    expect(createdSpan(parse({ merchant_id: MERCHANT, state: 'FAILED' }), [PARTNER])).toBeNull();
    expect(createdSpan(parse({ q: 'sbx', created_from: '2026-11-01T00:00:00Z' }), [PARTNER])).toBeNull();
    const params: unknown[] = [PARTNER, MERCHANT];
    const span = createdSpan(parse({ created_to: '2026-11-01T00:00:00.5+01:00' }), params)!;
    expect(params).toEqual([PARTNER, MERCHANT, '2026-10-31T23:00:00.500000Z']);
    expect(span.with).toContain('s.partner_id = $1 and s.created_at <= $3::timestamptz');
    expect(span.with).not.toContain('s.created_at >=');
    expect(span.where).toEqual([
      't.created_position >= (select low from created_span)',
      't.created_position <= (select high from created_span)',
    ]);
  });
});

describe('the transaction reads (list, summary, export) on PostgreSQL', () => {
  let url: string;
  let db: DataSource;
  let pool: Pool;
  let queries: {
    list: TransactionList['list'];
    summary: TransactionSummaries['summary'];
    export: TransactionExport['export'];
  };
  const filters = (query: Record<string, unknown> = {}): TransactionFilters =>
    parseTransactionFilters(query, 'summary');
  const page = { pageSize: 100, after: null };
  const ids = async (query: Record<string, unknown>, partner = PARTNER) =>
    (await queries.list(partner, filters(query), page)).rows.map((r) => r.id);

  let position = 0;
  const insert = async (row: {
    n: number;
    partner?: string;
    merchant?: string;
    type?: string;
    rail?: string;
    state?: string;
    amount: string;
    gateway?: string | null;
    routing?: string | null;
    account?: string | null;
    at: string;
    declineReason?: string | null;
  }) => {
    position += 1;
    await pool.query(
      `insert into transaction_list (id, partner_id, merchant_id, type, rail, state, amount_minor, currency,
         gateway_transaction_id, approval_code, decline_code, decline_reason, card_last4, routing_last4,
         account_last4, account_type, customer_id, parent_transaction_id, created_at, created_position, version,
         snapshot)
       values ($1, $2, $3, $4, $5, $6, $7, 'USD', $8, null, null, $9, $10, $11, $12, $13, null, null, $14, $15, 1, '{}')`,
      [
        id(row.n),
        row.partner ?? PARTNER,
        row.merchant ?? MERCHANT,
        row.type ?? 'SALE',
        row.rail ?? 'CARD',
        row.state ?? 'CAPTURED',
        row.amount,
        row.gateway ?? null,
        row.declineReason ?? null,
        (row.rail ?? 'CARD') === 'CARD' ? '4242' : null,
        row.routing ?? null,
        row.account ?? null,
        row.routing ? 'CHECKING' : null,
        row.at,
        position,
      ],
    );
    // As the projector counts a row it inserts.
    await pool.query(
      `insert into transaction_list_counts (partner_id, merchant_id, count) values ($1, $2, 1), ($1, $3, 1)
       on conflict (partner_id, merchant_id) do update set count = transaction_list_counts.count + 1`,
      [row.partner ?? PARTNER, row.merchant ?? MERCHANT, ALL_MERCHANTS],
    );
  };
  const id = (n: number) => `aaaaaaaa-0000-4000-8000-${String(n).padStart(12, '0')}`;

  beforeAll(async () => {
    url = await createTestDatabase('transaction_queries');
    db = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [
        ...PROJECTION_ENGINE_MIGRATIONS,
        MerchantList1764100000000,
        TransactionList1764420000000,
        TransactionListCounts1764420000001,
        TransactionListMoney1764420000002,
      ],
    });
    await db.initialize();
    await runMigrations(db);
    pool = new Pool({ connectionString: url, max: 4 });
    const [list, summaries, exports] = [
      new TransactionList(pool),
      new TransactionSummaries(pool),
      new TransactionExport(pool),
    ];
    queries = {
      list: list.list.bind(list),
      summary: summaries.summary.bind(summaries),
      export: exports.export.bind(exports),
    };
    await pool.query(
      `insert into merchant_list (id, partner_id, business_name, contact_email, contact_name, state,
         merchant_category_code, processor_mids, resubmission_count, resubmission_limit, created_at,
         created_position, version, snapshot)
       values ($1, $2, 'Blue Bottle, "Cafe"', 'a@b.test', 'A', 'ACTIVE', '5812', '[]', 0, 3, now(), 1, 1, '{}')`,
      [MERCHANT, PARTNER],
    );
    // 1: approved sale $10.00; 2: declined sale $25.50; 3: ACH debit $100.00 submitted;
    // 4: partial refund $3.00 of 1; 5: sale pending $7.77; 6: another partner's sale.
    await insert({ n: 1, amount: '1000', gateway: 'sbx_AbC_100%', at: '2026-11-01T10:00:00Z' });
    await insert({
      n: 2,
      state: 'FAILED',
      amount: '2550',
      gateway: null,
      at: '2026-11-01T11:00:00Z',
      declineReason: '=cmd|" /C calc"!A0',
    });
    await insert({
      n: 3,
      merchant: MERCHANT_2,
      type: 'ACH_DEBIT',
      rail: 'ACH',
      state: 'SUBMITTED',
      amount: '10000',
      gateway: 'sbx_ach_0015',
      routing: '0015',
      account: '6789',
      at: '2026-11-02T00:00:00Z',
    });
    await insert({
      n: 4,
      type: 'PARTIAL_REFUND',
      amount: '300',
      gateway: 'sbx_xyz',
      at: '2026-11-02T12:00:00.250Z',
    });
    await insert({ n: 5, state: 'INITIATED', amount: '777', at: '2026-11-03T00:00:00Z' });
    await insert({
      n: 6,
      partner: OTHER_PARTNER,
      amount: '1000',
      gateway: 'sbx_AbC_100%',
      at: '2026-11-01T10:00:00Z',
    });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.destroy();
    await dropTestDatabase(url);
  });

  it('lists one partner’s transactions newest first, with the merchant’s name', async () => {
    const { rows, total } = await queries.list(PARTNER, filters(), page);
    expect(rows.map((r) => r.id)).toEqual([id(5), id(4), id(3), id(2), id(1)]);
    expect(total).toBe(5);
    expect(rows[4]).toMatchObject({ merchant_name: 'Blue Bottle, "Cafe"', amount_minor: '1000' });
    expect(rows[2].merchant_name).toBeNull();
  });

  it('pages by position', async () => {
    const first = await queries.list(PARTNER, filters(), { pageSize: 2, after: null });
    expect(first.rows.map((r) => r.id)).toEqual([id(5), id(4), id(3)]);
    const next = await queries.list(PARTNER, filters(), { pageSize: 2, after: first.rows[1].position_key });
    expect(next.rows.map((r) => r.id)).toEqual([id(3), id(2), id(1)]);
  });

  it('searches the gateway id as a case-insensitive substring, wildcards literal', async () => {
    expect(await ids({ q: 'abc_1' })).toEqual([id(1)]);
    expect(await ids({ q: '100%' })).toEqual([id(1)]);
    expect(await ids({ q: '_' })).toEqual([id(4), id(3), id(1)]);
    expect(await ids({ q: '%' })).toEqual([id(1)]);
    expect(await ids({ q: 'SBX' })).toEqual([id(4), id(3), id(1)]);
    expect(await ids({ q: 'sbx_AbC_100%' }, OTHER_PARTNER)).toEqual([id(6)]);
  });

  it('searches ids exactly when the text is a UUID, last fours when four digits', async () => {
    expect(await ids({ q: id(2).toUpperCase() })).toEqual([id(2)]);
    expect(await ids({ q: MERCHANT_2 })).toEqual([id(3)]);
    expect(await ids({ q: id(6) })).toEqual([]);
    expect(await ids({ q: '6789' })).toEqual([id(3)]);
    expect(await ids({ q: '0015' })).toEqual([id(3)]);
    expect(await ids({ q: '4242' })).toEqual([]); // card last four: not searched
    expect(await ids({ q: '25.50' })).toEqual([]); // amount: not searched
    expect(await ids({ q: 'FAILED' })).toEqual([]); // state: not searched
  });

  it('filters by bounds, inclusive', async () => {
    expect(await ids({ amount_min: '10', amount_max: '100' })).toEqual([id(3), id(2), id(1)]);
    expect(await ids({ amount_max: '7.77' })).toEqual([id(5), id(4)]);
    expect(
      await ids({ created_from: '2026-11-02T00:00:00Z', created_to: '2026-11-02T12:00:00.25Z' }),
    ).toEqual([id(4), id(3)]);
    expect(await ids({ created_to: '2026-11-02T12:00:00.249999Z' })).toEqual([id(3), id(2), id(1)]);
    expect(await ids({ created_from: '2026-11-01T12:00:00+01:00' })).toEqual([id(5), id(4), id(3), id(2)]);
    expect(await ids({ state: 'FAILED', rail: 'CARD', type: 'SALE', merchant_id: MERCHANT })).toEqual([
      id(2),
    ]);
  });

  it('total_count: the projector’s counter for the unfiltered and merchant-only lists, count(*) otherwise', async () => {
    const total = async (query: Record<string, unknown>, partner = PARTNER) =>
      (await queries.list(partner, filters(query), { pageSize: 1, after: null })).total;
    expect(await total({})).toBe(5);
    expect(await total({ merchant_id: MERCHANT })).toBe(4);
    expect(await total({ merchant_id: MERCHANT_2 })).toBe(1);
    expect(await total({ merchant_id: '55555555-5555-4555-8555-555555555555' })).toBe(0);
    expect(await total({}, OTHER_PARTNER)).toBe(1);
    expect(await total({ state: 'FAILED' })).toBe(1);
    expect(await total({ merchant_id: MERCHANT, state: 'CAPTURED' })).toBe(2);
    // The counter is what the first two read (and only they): changed, it shows.
    await pool.query(
      'update transaction_list_counts set count = count + 100 where partner_id = $1 and merchant_id in ($2, $3)',
      [PARTNER, ALL_MERCHANTS, MERCHANT],
    );
    try {
      expect(await total({})).toBe(105);
      expect(await total({ merchant_id: MERCHANT })).toBe(104);
      expect(await total({ merchant_id: MERCHANT, state: 'CAPTURED' })).toBe(2);
      expect(await total({ created_from: '2026-01-01T00:00:00Z' })).toBe(5);
    } finally {
      await pool.query(
        'update transaction_list_counts set count = count - 100 where partner_id = $1 and merchant_id in ($2, $3)',
        [PARTNER, ALL_MERCHANTS, MERCHANT],
      );
    }
  });

  it('a created range lists exactly its rows, bounds included, however created_at and positions interleave', async () => {
    const THIRD = '66666666-6666-4666-8666-666666666666';
    // Positions ascending in this order; created_at out of order.
    const at = { 11: '10:00', 12: '08:00', 13: '12:00', 14: '09:00', 15: '08:00', 16: '11:00' };
    for (const [n, time] of Object.entries(at)) {
      await insert({
        n: Number(n),
        partner: THIRD,
        merchant: n === '14' ? MERCHANT_2 : MERCHANT,
        amount: '100',
        at: `2026-11-05T${time}:00Z`,
      });
    }
    const range = (from: string | null, to: string | null, more: Record<string, unknown> = {}) =>
      filters({
        ...(from ? { created_from: `2026-11-05T${from}Z` } : {}),
        ...(to ? { created_to: `2026-11-05T${to}Z` } : {}),
        ...more,
      });
    const listed = async (f: TransactionFilters, size = 100) => {
      const { rows, total } = await queries.list(THIRD, f, { pageSize: size, after: null });
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await listed(range('08:00:00', '09:00:00'))).toEqual({ ids: [id(15), id(14), id(12)], total: 3 });
    expect(await listed(range('09:00:00', '11:00:00'))).toEqual({ ids: [id(16), id(14), id(11)], total: 3 });
    expect(await listed(range('08:00:00.000001', '09:59:59.999999'))).toEqual({ ids: [id(14)], total: 1 });
    expect(await listed(range('11:00:00', null))).toEqual({ ids: [id(16), id(13)], total: 2 });
    expect(await listed(range(null, '08:00:00'))).toEqual({ ids: [id(15), id(12)], total: 2 });
    expect(await listed(range('12:00:00.000001', '13:00:00'))).toEqual({ ids: [], total: 0 });
    expect(await listed(range('08:00:00', '09:00:00', { merchant_id: MERCHANT_2 }))).toEqual({
      ids: [id(14)],
      total: 1,
    });
    expect(await listed(range('08:00:00', '12:00:00', { amount_max: '1' }))).toEqual({
      ids: [id(16), id(15), id(14), id(13), id(12), id(11)],
      total: 6,
    });
    // Pages within the range, by position.
    const first = await queries.list(THIRD, range('08:00:00', '11:00:00'), { pageSize: 2, after: null });
    expect(first.rows.map((r) => r.id)).toEqual([id(16), id(15), id(14)]);
    const next = await queries.list(THIRD, range('08:00:00', '11:00:00'), {
      pageSize: 2,
      after: first.rows[1].position_key,
    });
    expect(next.rows.map((r) => r.id)).toEqual([id(14), id(12), id(11)]);
    expect(next.total).toBe(5);
  });

  it('summarises with SQL sums in minor units', async () => {
    const summary = await queries.summary(PARTNER, filters());
    expect(summary).toMatchObject({
      currency: 'USD',
      count: 5,
      approved_count: 2,
      declined_count: 1,
      approval_rate: '0.6667',
      volume: '110.00',
      refunds: { count: 1, amount: '3.00' },
      net: '107.00',
    });
    expect(summary.by_state.CAPTURED).toEqual({ count: 2, amount: '13.00' });
    expect(summary.by_state.SETTLED).toEqual({ count: 0, amount: '0.00' });
    expect(summary.by_type.SALE).toEqual({ count: 3, amount: '43.27' });
    expect(summary.by_rail).toEqual({
      CARD: { count: 4, amount: '46.27' },
      ACH: { count: 1, amount: '100.00' },
    });
    expect(await queries.summary(PARTNER, filters({ q: 'nothing-matches' }))).toMatchObject({
      count: 0,
      approval_rate: null,
      volume: '0.00',
      net: '0.00',
    });
  });

  const read = async (stream: Readable) => {
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text;
  };

  it('exports CSV with CRLF, quoting and neutralised formulas, and gives its connection back', async () => {
    const csv = await read(await queries.export(PARTNER, filters({ merchant_id: MERCHANT })));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.trimEnd());
    expect(lines).toHaveLength(6); // header, four rows, and the empty rest after the last CRLF
    expect(lines.slice(1, 5).map((line) => line.slice(0, 36))).toEqual([id(5), id(4), id(2), id(1)]);
    expect(lines[3]).toContain(`,"'=cmd|"" /C calc""!A0",`);
    expect(lines[3]).toContain(',25.50,USD,FAILED,');
    expect(lines[3]).toContain(',"Blue Bottle, ""Cafe""",');
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('an abandoned export rolls back and releases its connection', async () => {
    for (let i = 0; i < 6; i += 1) {
      const stream = await queries.export(PARTNER, filters());
      stream.destroy();
      await new Promise((resolve) => stream.once('close', resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pool.totalCount - pool.idleCount).toBe(0);
    expect(await ids({})).toHaveLength(5);
  });
});
