/* eslint-disable @typescript-eslint/no-explicit-any -- the test's world drives two aggregates with commands written as plain objects */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { Aggregate } from '../../libs/event-store/src/aggregate';
import { PostgresEventStore } from '../../libs/event-store/src/postgres/postgres-event-store';
import { FixedClock } from '../../libs/platform/src/clock/clock';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import {
  PROJECTION_ENGINE_ENTITIES,
  PROJECTION_ENGINE_MIGRATIONS,
  ProjectionRunner,
} from '../../libs/projections/src';
import { settlementBatchAggregate } from '../../libs/settlement/src/application/settlement-batch-commands';
import type { SettlementBatch } from '../../libs/settlement/src/domain/settlement-batch';
import {
  LEDGER_ACCOUNT_NAMES,
  POSTING_KINDS,
  type LedgerAccount,
} from '../../libs/settlement/src/domain/ledger/chart-of-accounts';
import { transactionAggregate } from '../../libs/transactions/src/application/transaction-commands';
import type { Transaction } from '../../libs/transactions/src/domain/transaction';
import type { TransactionInitiated } from '../../libs/transactions/src/domain/transaction-events';
import { createTestDatabase, dropTestDatabase } from '../../test/support/database';
import { testMetadata } from '../../test/support/metadata';
import { Ledger1764660000002 } from './1764660000002-ledger.migration';
import { LedgerProjector } from './ledger.projector';

/**
 * The ledger's invariants over random sequences of money movements (fast-check): every entry
 * balances; each merchant's balances are what its transactions and its settled batches say,
 * computed here from their final states by rules written from docs/ledger.md, not from the
 * posting code; rebuilding the ledger from the first event gives identical rows.
 *
 * The events are the real ones: each operation runs the transaction and batch deciders through
 * the command path (`Aggregate`) on the PostgreSQL event store, and the projector runs in the
 * projection runner on embedded PostgreSQL.
 */
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';

type Op =
  | { kind: 'sale'; base: number; surchargeBps: number; convenienceFee: number }
  | { kind: 'achDebit'; base: number; convenienceFee: number }
  | { kind: 'void' | 'achVoid' | 'achRefund' | 'achReversal' | 'return' | 'dispute'; pick: number }
  | { kind: 'refund'; pick: number; percent: number }
  | { kind: 'chargeback'; pick: number; won: boolean }
  | { kind: 'settle' }
  | { kind: 'report'; pick: number; fees: number; clean: boolean };

const pick = fc.nat({ max: 50 });

/** One sequence with every kind of money movement, run first, so every posting rule is exercised whatever the seed. */
const EVERY_MOVEMENT: Op[] = [
  { kind: 'sale', base: 10_000, surchargeBps: 250, convenienceFee: 0 },
  { kind: 'sale', base: 5_000, surchargeBps: 0, convenienceFee: 199 },
  { kind: 'sale', base: 7_777, surchargeBps: 300, convenienceFee: 0 },
  { kind: 'sale', base: 2_500, surchargeBps: 0, convenienceFee: 0 },
  { kind: 'achDebit', base: 20_000, convenienceFee: 150 },
  { kind: 'achDebit', base: 9_000, convenienceFee: 0 },
  { kind: 'achDebit', base: 4_000, convenienceFee: 0 },
  { kind: 'achDebit', base: 3_000, convenienceFee: 0 },
  { kind: 'void', pick: 3 },
  { kind: 'achVoid', pick: 3 },
  { kind: 'return', pick: 2 },
  { kind: 'settle' },
  { kind: 'report', pick: 0, fees: 731, clean: true },
  { kind: 'refund', pick: 0, percent: 40 },
  { kind: 'achRefund', pick: 0 },
  { kind: 'achReversal', pick: 0 },
  { kind: 'dispute', pick: 1 },
  { kind: 'dispute', pick: 1 },
  { kind: 'chargeback', pick: 0, won: true },
  { kind: 'chargeback', pick: 0, won: false },
  { kind: 'sale', base: 1_234, surchargeBps: 250, convenienceFee: 0 },
  { kind: 'achDebit', base: 6_000, convenienceFee: 0 },
  { kind: 'settle' },
  { kind: 'return', pick: 0 },
  { kind: 'report', pick: 0, fees: 99, clean: false },
];
const OPS: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      base: fc.integer({ min: 1, max: 500_000 }),
      surchargeBps: fc.constantFrom(0, 250, 300),
      convenienceFee: fc.constantFrom(0, 0, 199),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('achDebit' as const),
      base: fc.integer({ min: 1, max: 500_000 }),
      convenienceFee: fc.constantFrom(0, 150),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick,
      percent: fc.integer({ min: 1, max: 100 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      pick,
      fees: fc.integer({ min: 0, max: 2_000 }),
      clean: fc.boolean(),
    }),
  },
  ...(['void', 'achVoid', 'achRefund', 'achReversal', 'return', 'dispute'] as const).map((kind) => ({
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant(kind), pick }),
  })),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('chargeback' as const), pick, won: fc.boolean() }) },
);

/** A merchant's little world: its transactions and batches, written through the real command path. */
class World {
  readonly transactions = new Map<string, Transaction>();
  readonly batches = new Map<string, SettlementBatch>();
  position = 0n;

  constructor(
    readonly merchantId: string,
    private readonly tx: Aggregate<any, Transaction, any>,
    private readonly batch: Aggregate<any, SettlementBatch, any>,
    private readonly clock: FixedClock,
  ) {}

  private async run<S>(aggregate: Aggregate<any, S, any>, command: object): Promise<S> {
    this.clock.advance(60_000);
    const result = await aggregate.run(command as never, testMetadata({ partner_id: PARTNER }));
    if (result.position !== null && result.position > this.position) this.position = result.position;
    return result.state;
  }

  private async txCommand(command: object): Promise<Transaction> {
    const t = await this.run(this.tx, command);
    this.transactions.set(t.id, t);
    return t;
  }

  private choose(pick: number, test: (t: Transaction) => boolean): Transaction | undefined {
    const eligible = [...this.transactions.values()].filter(test);
    return eligible.length ? eligible[pick % eligible.length] : undefined;
  }

  private async create(data: Partial<TransactionInitiated['data']>, approve = true): Promise<Transaction> {
    const transactionId = randomUUID();
    await this.txCommand({
      type: 'InitiateTransaction',
      transactionId,
      data: {
        partnerId: PARTNER,
        merchantId: this.merchantId,
        type: 'SALE',
        rail: 'CARD',
        amountMinor: '0',
        currency: 'USD',
        surchargeMinor: '0',
        convenienceFeeMinor: '0',
        taxMinor: null,
        entryMode: 'KEYED',
        useType: 'ONE_TIME_FUTURE',
        storedCredentialId: null,
        vaultToken: null,
        customerId: null,
        parentTransactionId: null,
        card: null,
        bank: null,
        secCode: null,
        customFields: [],
        level2Data: null,
        level3Data: null,
        refundReason: null,
        reversalReason: null,
        convenienceFeeDisclosure: null,
        surchargeDisclosure: null,
        source: 'api',
        ...data,
      },
    });
    if (!approve) return this.transactions.get(transactionId)!;
    return this.txCommand({
      type: 'RecordGatewayOutcome',
      transactionId,
      outcome: {
        kind: 'approved',
        approvalCode: 'A1',
        gatewayTransactionId: `gw_${transactionId.slice(0, 8)}`,
      },
    });
  }

  /** A follow-up as the payments flow writes it: the parent moves first, then the child is recorded and approved. */
  private async followUp(parent: Transaction, type: string, amountMinor?: bigint): Promise<void> {
    const childId = randomUUID();
    const after = await this.txCommand({
      type: 'ApplyFollowUp',
      transactionId: parent.id,
      followUp: type,
      childId,
      amountMinor,
      reversalReason: type === 'ACH_REVERSAL' ? { code: 'duplicate_entry', description: null } : undefined,
    });
    const granted = after.refunds[childId];
    await this.create({
      type: type as never,
      rail: parent.rail,
      amountMinor: granted ? granted.amountMinor : parent.amountMinor,
      surchargeMinor: granted ? granted.surchargeReversedMinor : '0',
      parentTransactionId: parent.id,
      useType: null,
    });
  }

  async apply(op: Op): Promise<void> {
    const card = (t: Transaction) => t.rail === 'CARD' && t.type === 'SALE';
    const ach = (t: Transaction) => t.rail === 'ACH' && t.type === 'ACH_DEBIT';
    switch (op.kind) {
      case 'sale': {
        const surcharge = op.convenienceFee > 0 ? 0 : Math.floor((op.base * op.surchargeBps + 5000) / 10000);
        await this.create({
          amountMinor: String(op.base),
          surchargeMinor: String(surcharge),
          convenienceFeeMinor: String(op.convenienceFee),
        });
        return;
      }
      case 'achDebit':
        await this.create({
          type: 'ACH_DEBIT',
          rail: 'ACH',
          amountMinor: String(op.base),
          convenienceFeeMinor: String(op.convenienceFee),
        });
        return;
      case 'void': {
        const parent = this.choose(op.pick, (t) => card(t) && t.state === 'CAPTURED');
        if (parent) await this.followUp(parent, 'VOID');
        return;
      }
      case 'achVoid': {
        const parent = this.choose(op.pick, (t) => ach(t) && t.state === 'SUBMITTED');
        if (parent) await this.followUp(parent, 'ACH_VOID');
        return;
      }
      case 'refund': {
        const parent = this.choose(
          op.pick,
          (t) => card(t) && ['SETTLED', 'PARTIALLY_REFUNDED'].includes(t.state),
        );
        if (!parent) return;
        const left = BigInt(parent.amountMinor) - BigInt(parent.refundedMinor);
        const amount = (left * BigInt(op.percent)) / 100n || left;
        await this.followUp(
          parent,
          amount === left ? 'REFUND' : 'PARTIAL_REFUND',
          amount === left ? undefined : amount,
        );
        return;
      }
      case 'achRefund':
      case 'achReversal': {
        const parent = this.choose(op.pick, (t) => ach(t) && t.state === 'SETTLED');
        if (parent) await this.followUp(parent, op.kind === 'achRefund' ? 'ACH_REFUND' : 'ACH_REVERSAL');
        return;
      }
      case 'return': {
        const entry = this.choose(op.pick, (t) => ach(t) && ['SUBMITTED', 'SETTLED'].includes(t.state));
        if (entry)
          await this.txCommand({ type: 'ReturnAchEntry', transactionId: entry.id, returnCode: 'R01' });
        return;
      }
      case 'dispute': {
        const sale = this.choose(op.pick, (t) => card(t) && t.state === 'SETTLED');
        if (sale)
          await this.txCommand({
            type: 'OpenDispute',
            transactionId: sale.id,
            disputeId: randomUUID(),
            reason: null,
          });
        return;
      }
      case 'chargeback': {
        const disputed = this.choose(op.pick, (t) => t.state === 'DISPUTED');
        if (disputed)
          await this.txCommand({
            type: 'ResolveChargeback',
            transactionId: disputed.id,
            outcome: op.won ? 'won' : 'lost',
          });
        return;
      }
      case 'settle':
        return this.settle();
      case 'report':
        return this.report(op);
    }
  }

  /** The end of day: every captured card transaction and submitted ACH entry into one batch. */
  private async settle(): Promise<void> {
    const batchId = randomUUID();
    const members = [];
    for (const t of [...this.transactions.values()]) {
      const due =
        (t.rail === 'CARD' && t.state === 'CAPTURED') || (t.rail === 'ACH' && t.state === 'SUBMITTED');
      if (
        !due ||
        !['SALE', 'ACH_DEBIT', 'REFUND', 'PARTIAL_REFUND', 'ACH_REFUND', 'ACH_REVERSAL'].includes(t.type)
      )
        continue;
      const settled = await this.txCommand({ type: 'Settle', transactionId: t.id, batchId });
      members.push({
        memberId: randomUUID(),
        transactionId: t.id,
        gatewayTransactionId: settled.gatewayTransactionId,
        rail: t.rail,
        type: t.type,
        grossAmountMinor: BigInt(t.amountMinor) + BigInt(t.surchargeMinor) + BigInt(t.convenienceFeeMinor),
        currency: 'USD',
        settledAt: settled.settledAt,
      });
    }
    if (members.length === 0) return;
    const b = await this.run(this.batch, {
      type: 'OpenSettlementBatch',
      batchId,
      merchantId: this.merchantId,
      partnerId: PARTNER,
      currency: 'USD',
      processorKey: 'SANDBOX_PROCESSOR',
      runAt: this.clock.now(),
      members,
    });
    this.batches.set(batchId, b);
  }

  /** The processor's report of a PENDING batch, clean or without its first line (then written off). */
  private async report(op: Extract<Op, { kind: 'report' }>): Promise<void> {
    const pending = [...this.batches.values()].filter((b) => b.state === 'PENDING');
    if (pending.length === 0) return;
    const target = pending[op.pick % pending.length];
    const lines = target.members.map((m) => ({
      transactionId: m.transactionId,
      amountMinor: BigInt(m.amountMinor),
      settledAt: m.settledAt,
      surchargeMinor: null,
    }));
    const kept = op.clean ? lines : lines.slice(1);
    const surcharges = Object.fromEntries(
      target.members.map((m) => [
        m.transactionId,
        { surchargeMinor: BigInt(this.transactions.get(m.transactionId)!.surchargeMinor) },
      ]),
    );
    let b = await this.run(this.batch, {
      type: 'IngestProcessorReport',
      batchId: target.id,
      report: {
        reportId: randomUUID(),
        processorBatchId: null,
        vendorSettlementBatchId: null,
        lines: kept,
        totalAmountMinor: kept.reduce((s, l) => s + l.amountMinor, 0n),
        feesMinor: BigInt(op.fees),
      },
      facts: { members: surcharges, others: {}, expectedFeesMinor: BigInt(op.fees) },
    });
    b = await this.run(this.batch, { type: 'CompleteReconciliation', batchId: target.id });
    for (const e of Object.values(b.exceptions).filter((x) => x.state === 'OPEN')) {
      b = await this.run(this.batch, {
        type: 'RecordExceptionOutcome',
        batchId: target.id,
        key: e.key,
        occurrence: e.occurrence,
        state: 'WRITTEN_OFF',
      });
    }
    this.batches.set(target.id, b);
  }
}

/**
 * What each account of a merchant must hold, from the final states alone (docs/ledger.md):
 * a debit-positive balance per account.
 */
function expectedBalances(world: World): Record<LedgerAccount, bigint> {
  const b = Object.fromEntries(LEDGER_ACCOUNT_NAMES.map((a) => [a, 0n])) as Record<LedgerAccount, bigint>;
  for (const t of world.transactions.values()) {
    const base = BigInt(t.amountMinor);
    const surcharge = BigInt(t.surchargeMinor);
    const fee = BigInt(t.convenienceFeeMinor);
    const gross = base + surcharge + fee;
    const capture = t.type === 'SALE' || t.type === 'ACH_DEBIT';
    const back = ['REFUND', 'PARTIAL_REFUND', 'ACH_REFUND', 'ACH_REVERSAL'].includes(t.type);
    const settled = t.batchId !== null;
    if (capture) {
      // Approved and not undone before settlement: owed to the merchant.
      const live =
        !['INITIATED', 'FAILED', 'VOIDED'].includes(t.state) && !(t.state === 'RETURNED' && !settled);
      if (live) {
        b.merchant_payable -= base;
        b.surcharge_payable -= surcharge;
        b.convenience_fee_payable -= fee;
      }
      if (t.state === 'CAPTURED' || t.state === 'SUBMITTED') b.processor_receivable += gross;
      if (settled) b.settlement_clearing += gross;
      if (t.state === 'RETURNED' && settled) {
        b.settlement_clearing -= gross;
        b.merchant_receivable += gross;
      }
      if (t.state === 'DISPUTED') {
        b.settlement_clearing -= gross;
        b.chargebacks += gross;
      }
      if (t.state === 'CHARGED_BACK') {
        b.settlement_clearing -= gross;
        b.merchant_receivable += gross;
      }
    }
    if (back && ['CAPTURED', 'SUBMITTED', 'SETTLED'].includes(t.state)) {
      b.merchant_payable += base;
      b.surcharge_payable += surcharge;
      b.convenience_fee_payable += fee;
      if (t.state !== 'SETTLED') b.processor_receivable -= gross;
      else b.settlement_clearing -= gross;
    }
  }
  for (const batch of world.batches.values()) {
    const fees = batch.reportCount > 0 ? BigInt(batch.feesMinor ?? '0') : 0n;
    b.merchant_payable += fees;
    b.fees_revenue -= fees;
    if (batch.state === 'RECONCILED' || batch.state === 'CLOSED_WITH_EXCEPTIONS') {
      const total = BigInt(batch.totalAmountMinor);
      let surcharge = 0n;
      let fee = 0n;
      for (const m of batch.members) {
        const t = world.transactions.get(m.transactionId)!;
        const sign = BigInt(m.amountMinor) < 0n ? -1n : 1n;
        surcharge += sign * BigInt(t.surchargeMinor);
        fee += sign * BigInt(t.convenienceFeeMinor);
      }
      b.settlement_clearing -= total;
      b.platform_cash += fees;
      b.surcharge_payable += surcharge;
      b.convenience_fee_payable += fee;
      b.merchant_payable += total - fees - surcharge - fee;
    }
  }
  return b;
}

describe('the ledger projection (property-based)', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  let dataSource: DataSource;
  let runner: ProjectionRunner;
  const clock = new FixedClock(new Date('2026-11-02T15:00:00.000Z'));
  const worlds: World[] = [];

  beforeAll(async () => {
    url = await createTestDatabase('ledger');
    pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    store = new PostgresEventStore(pool, clock, { pollIntervalMs: 50 });
    dataSource = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [...PROJECTION_ENGINE_MIGRATIONS, Ledger1764660000002],
    });
    await dataSource.initialize();
    await runMigrations(dataSource);
    runner = new ProjectionRunner({
      store,
      dataSource,
      projectors: [new LedgerProjector()],
      pollIntervalMs: 50,
    });
    await runner.start();
  }, 60_000);

  afterAll(async () => {
    await runner?.stop();
    await store?.close();
    await dataSource?.destroy();
    await pool?.end();
    if (url) await dropTestDatabase(url);
  });

  const balancesOf = async (merchantId: string) => {
    const rows: { account: LedgerAccount; balance: string }[] = await dataSource.query(
      'select account, balance_minor::text as balance from ledger_balances where merchant_id = $1',
      [merchantId],
    );
    const found = Object.fromEntries(LEDGER_ACCOUNT_NAMES.map((a) => [a, 0n])) as Record<
      LedgerAccount,
      bigint
    >;
    for (const row of rows) found[row.account] = BigInt(row.balance);
    return found;
  };

  it('every entry balances, and each merchant’s ledger agrees with its transactions and its settled batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OPS, { minLength: 4, maxLength: 28 }), async (ops) => {
        const world = new World(
          randomUUID(),
          new Aggregate(transactionAggregate, store, clock),
          new Aggregate(settlementBatchAggregate, store, clock),
          clock,
        );
        worlds.push(world);
        for (const op of ops) await world.apply(op);
        if (world.position === 0n) return;
        expect(await runner.waitFor(world.position, ['ledger'], 20_000)).toBe(true);

        const unbalanced = await dataSource.query(
          `select entry_id from ledger_lines where merchant_id = $1 group by entry_id, currency having sum(amount_minor) <> 0`,
          [world.merchantId],
        );
        expect(unbalanced).toEqual([]);
        const balances = await balancesOf(world.merchantId);
        expect(balances).toEqual(expectedBalances(world));
        // The balances are the sums of the lines.
        const summed: { account: LedgerAccount; total: string }[] = await dataSource.query(
          'select account, sum(amount_minor)::text as total from ledger_lines where merchant_id = $1 group by account',
          [world.merchantId],
        );
        for (const row of summed) expect(balances[row.account]).toBe(BigInt(row.total));

        // Each batch: its settlement entries add up to its total; its fees and payout to what it says.
        for (const batch of world.batches.values()) {
          const [row] = await dataSource.query(
            `select coalesce(sum(amount_minor) filter (where kind = 'settlement' and account = 'settlement_clearing'), 0)::text as settled,
                    coalesce(sum(-amount_minor) filter (where kind = 'fees'), 0)::text as fees_revenue_credit,
                    coalesce(sum(amount_minor) filter (where kind = 'payout' and account = 'platform_cash'), 0)::text as swept,
                    count(*) filter (where kind = 'payout') as payout_lines
               from ledger_lines where batch_id = $1 and (account <> 'merchant_payable' or kind <> 'fees')`,
            [batch.id],
          );
          const fees = batch.reportCount > 0 ? BigInt(batch.feesMinor ?? '0') : 0n;
          const final = batch.state === 'RECONCILED' || batch.state === 'CLOSED_WITH_EXCEPTIONS';
          expect(BigInt(row.settled)).toBe(BigInt(batch.totalAmountMinor));
          expect(BigInt(row.fees_revenue_credit)).toBe(fees);
          expect(BigInt(row.swept)).toBe(final ? fees : 0n);
          expect(Number(row.payout_lines) > 0).toBe(
            final && (BigInt(batch.totalAmountMinor) !== 0n || fees !== 0n),
          );
        }
      }),
      { numRuns: 40, examples: [[EVERY_MOVEMENT]] },
    );
  }, 240_000);

  it('rebuilding the ledger from the first event gives identical entries, lines and balances', async () => {
    const snapshot = async () => ({
      entries: await dataSource.query('select * from ledger_entries order by position'),
      lines: await dataSource.query(
        'select entry_id, line, account, amount_minor::text, kind, batch_id, transaction_id from ledger_lines order by position, line',
      ),
      balances: await dataSource.query(
        'select merchant_id, account, currency, balance_minor::text from ledger_balances order by merchant_id, account',
      ),
    });
    const before = await snapshot();
    expect(before.lines.length).toBeGreaterThan(0);
    await runner.rebuild('ledger');
    expect(await snapshot()).toEqual(before);
    // And from zero, so no row is left over from the live tables.
    const merchants = new Set(before.balances.map((b: { merchant_id: string }) => b.merchant_id));
    expect(merchants.size).toBe(worlds.filter((w) => w.position > 0n).length);
    // Every kind of entry was posted and checked above.
    const kinds = await dataSource.query('select distinct kind from ledger_entries order by kind');
    expect(kinds.map((k: { kind: string }) => k.kind)).toEqual([...POSTING_KINDS].sort());
  }, 120_000);
});
