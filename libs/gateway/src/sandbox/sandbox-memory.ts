import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { migrateWithLock } from '../../../platform/src/database/migrate-with-lock';
import type { GatewayOperation } from '../gateway';

/** A transaction as the sandbox gateway holds it (no PAN, no account number). */
export interface SandboxTransaction {
  kind: 'CAPTURE' | 'ACH_DEBIT' | 'REFUND';
  amountMinor: bigint;
  refundedMinor: bigint;
  voided: boolean;
}

/** A call the sandbox has answered, kept under its reference. */
export interface StoredCall {
  operation: GatewayOperation;
  /** A hash of the request's parameters (no CVC: the vault may not keep it for a retry). */
  fingerprint: string;
  /** The outcome the gateway holds; never UNKNOWN. */
  result: object;
}

/** What the first call of a reference decided: its outcome and what it does to the sandbox's records. */
export interface Decision {
  result: object;
  /** The call was carried out but its answer is "lost" (the `.91` trigger). */
  answerUnknown?: boolean;
  /** A transaction the call creates, under the id derived from its reference. */
  creates?: { kind: SandboxTransaction['kind']; amountMinor: bigint };
  /** What it does to the transaction it acts on (a refund's amount, a void). */
  refunds?: bigint;
  voids?: boolean;
}

export interface CallOutcome {
  stored: StoredCall;
  /** This call decided (false: an earlier call of the reference did, and this one only got its outcome). */
  fresh: boolean;
  answerUnknown: boolean;
}

/** A call of the sandbox: what `once` needs to know before it decides. */
export interface SandboxCall {
  operation: GatewayOperation;
  reference: string;
  fingerprint: string;
  /** The transaction it acts on (refund, void): the decision sees its record, locked for the call. */
  parentId?: string;
}

/**
 * Where the sandbox gateway keeps what it did: each reference's outcome and its transactions.
 * `once` is the idempotency core: the first call of a reference decides and its outcome and
 * effects are kept together; every later call gets that outcome and decides nothing.
 */
export interface SandboxMemory {
  once(call: SandboxCall, decide: (parent: SandboxTransaction | undefined) => Decision): Promise<CallOutcome>;
  lookup(reference: string): Promise<StoredCall | undefined>;
  transaction(id: string): Promise<SandboxTransaction | undefined>;
}

/** The id of the transaction a reference's call created. */
export function sandboxTransactionId(reference: string): string {
  return `sbx_${createHash('sha256').update(`transaction:${reference}`).digest('hex').slice(0, 24)}`;
}

/**
 * In this process's memory: a restart forgets everything, and another process knows nothing of
 * it. For tests of the gateway alone. No `await` between the read and the write of a reference,
 * so two concurrent calls cannot both decide.
 */
export class ProcessSandboxMemory implements SandboxMemory {
  private readonly calls = new Map<string, StoredCall>();
  private readonly transactions = new Map<string, SandboxTransaction>();

  async once(
    call: SandboxCall,
    decide: (parent: SandboxTransaction | undefined) => Decision,
  ): Promise<CallOutcome> {
    const existing = this.calls.get(call.reference);
    if (existing) return { stored: existing, fresh: false, answerUnknown: false };
    const parent = call.parentId ? this.transactions.get(call.parentId) : undefined;
    const decision = decide(parent && { ...parent });
    const stored = { operation: call.operation, fingerprint: call.fingerprint, result: decision.result };
    this.calls.set(call.reference, stored);
    if (decision.creates) {
      this.transactions.set(sandboxTransactionId(call.reference), {
        ...decision.creates,
        refundedMinor: 0n,
        voided: false,
      });
    }
    if (parent && decision.refunds) parent.refundedMinor += decision.refunds;
    if (parent && decision.voids) parent.voided = true;
    return { stored, fresh: true, answerUnknown: decision.answerUnknown ?? false };
  }

  async lookup(reference: string): Promise<StoredCall | undefined> {
    return this.calls.get(reference);
  }

  async transaction(id: string): Promise<SandboxTransaction | undefined> {
    const found = this.transactions.get(id);
    return found && { ...found };
  }
}

const MIGRATE_LOCK: [number, number] = [0x1de0, 4];

const SCHEMA = `
create schema if not exists sandbox_gateway;
create table if not exists sandbox_gateway.calls (
  reference text primary key,
  operation text not null,
  fingerprint text not null,
  result jsonb not null,
  created_at timestamptz not null default now()
);
create table if not exists sandbox_gateway.transactions (
  id text primary key,
  kind text not null check (kind in ('CAPTURE', 'ACH_DEBIT', 'REFUND')),
  amount_minor bigint not null,
  refunded_minor bigint not null default 0,
  voided boolean not null default false
);
`;

interface CallRow {
  operation: GatewayOperation;
  fingerprint: string;
  result: object;
}

interface TransactionRow {
  kind: SandboxTransaction['kind'];
  amount_minor: string;
  refunded_minor: string;
  voided: boolean;
}

const toTransaction = (row: TransactionRow): SandboxTransaction => ({
  kind: row.kind,
  amountMinor: BigInt(row.amount_minor),
  refundedMinor: BigInt(row.refunded_minor),
  voided: row.voided,
});

/**
 * In PostgreSQL, shared by every process on the database, as a real gateway's records are: a
 * refund sent to one process finds the capture another process made, and a retry that another
 * process takes over after a crash finds the charge the first one made (docs/gateway.md).
 *
 * A capture or an ACH debit is one statement: its outcome depends on the request alone, so it is
 * decided first and inserted with its transaction (`on conflict do nothing`: the first call of a
 * reference wins; a later one reads what it kept). A refund or a void decides on its parent's
 * record: one transaction that locks the parent (`for update`), so two refunds of one capture take
 * turns and never exceed it.
 */
export class PostgresSandboxMemory implements SandboxMemory {
  constructor(private readonly pool: Pool) {}

  static async migrate(pool: Pool): Promise<void> {
    await migrateWithLock(pool, MIGRATE_LOCK, SCHEMA);
  }

  async once(
    call: SandboxCall,
    decide: (parent: SandboxTransaction | undefined) => Decision,
  ): Promise<CallOutcome> {
    return call.parentId ? this.onParent(call, call.parentId, decide) : this.alone(call, decide(undefined));
  }

  async lookup(reference: string): Promise<StoredCall | undefined> {
    const { rows } = await this.pool.query<CallRow>(
      'select operation, fingerprint, result from sandbox_gateway.calls where reference = $1',
      [reference],
    );
    return rows[0];
  }

  async transaction(id: string): Promise<SandboxTransaction | undefined> {
    const { rows } = await this.pool.query<TransactionRow>(
      'select kind, amount_minor::text, refunded_minor::text, voided from sandbox_gateway.transactions where id = $1',
      [id],
    );
    return rows[0] && toTransaction(rows[0]);
  }

  private async alone(call: SandboxCall, decision: Decision): Promise<CallOutcome> {
    const { rows } = await this.pool.query<{ inserted: boolean }>(
      `with call as (
         insert into sandbox_gateway.calls (reference, operation, fingerprint, result)
         values ($1, $2, $3, $4) on conflict (reference) do nothing returning reference
       ), created as (
         insert into sandbox_gateway.transactions (id, kind, amount_minor)
         select $5, $6, $7 from call where $6::text is not null
       )
       select exists (select 1 from call) as inserted`,
      [
        call.reference,
        call.operation,
        call.fingerprint,
        decision.result,
        sandboxTransactionId(call.reference),
        decision.creates?.kind ?? null,
        decision.creates?.amountMinor.toString() ?? null,
      ],
    );
    if (rows[0].inserted) return this.decided(call, decision);
    return { stored: (await this.lookup(call.reference))!, fresh: false, answerUnknown: false };
  }

  private async onParent(
    call: SandboxCall,
    parentId: string,
    decide: (parent: SandboxTransaction | undefined) => Decision,
  ): Promise<CallOutcome> {
    return this.inTransaction(async (client) => {
      // The parent first: every call on it takes turns here, those of one reference included.
      const parent = await client.query<TransactionRow>(
        `select kind, amount_minor::text, refunded_minor::text, voided
           from sandbox_gateway.transactions where id = $1 for update`,
        [parentId],
      );
      const existing = await client.query<CallRow>(
        'select operation, fingerprint, result from sandbox_gateway.calls where reference = $1',
        [call.reference],
      );
      if (existing.rows[0]) return { stored: existing.rows[0], fresh: false, answerUnknown: false };
      const decision = decide(parent.rows[0] && toTransaction(parent.rows[0]));
      // Without a parent nothing was locked: a twin of this call may have got here first.
      const inserted = await client.query(
        `insert into sandbox_gateway.calls (reference, operation, fingerprint, result) values ($1, $2, $3, $4)
         on conflict (reference) do nothing`,
        [call.reference, call.operation, call.fingerprint, decision.result],
      );
      if (inserted.rowCount === 0) {
        const { rows } = await client.query<CallRow>(
          'select operation, fingerprint, result from sandbox_gateway.calls where reference = $1',
          [call.reference],
        );
        return { stored: rows[0], fresh: false, answerUnknown: false };
      }
      if (decision.creates) {
        await client.query(
          'insert into sandbox_gateway.transactions (id, kind, amount_minor) values ($1, $2, $3)',
          [
            sandboxTransactionId(call.reference),
            decision.creates.kind,
            decision.creates.amountMinor.toString(),
          ],
        );
      }
      if (parent.rows[0] && (decision.refunds || decision.voids)) {
        await client.query(
          `update sandbox_gateway.transactions
              set refunded_minor = refunded_minor + $2, voided = voided or $3 where id = $1`,
          [parentId, (decision.refunds ?? 0n).toString(), decision.voids ?? false],
        );
      }
      return this.decided(call, decision);
    });
  }

  private decided(call: SandboxCall, decision: Decision): CallOutcome {
    return {
      stored: { operation: call.operation, fingerprint: call.fingerprint, result: decision.result },
      fresh: true,
      answerUnknown: decision.answerUnknown ?? false,
    };
  }

  private async inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
