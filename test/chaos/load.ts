import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ApiResponse } from '../support/api';
import type { Cluster, ClusterPartner, Member } from '../support/cluster';
import { retryUntilDefinite } from '../support/retry';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One write the load sent: what, with which key, and what (if anything) came back. */
export interface Write {
  op: 'sale' | 'customer';
  key: string;
  path: string;
  body: Record<string, unknown>;
  /** The process it was sent to. */
  member: number;
  /** The answer; null when none came (the process died with it in flight, or refused the connection). */
  answer: ApiResponse | null;
}

export interface WriteLoad {
  writes: Write[];
  /** Resolves once `count` more writes were acknowledged (2xx) than when it was called. */
  untilAcknowledged(count: number): Promise<void>;
  stop(): Promise<Write[]>;
}

/**
 * Writers sending SALEs of a saved card and customer creations back to back, each with a fresh
 * Idempotency-Key, spread over the cluster's processes. A writer whose process does not answer
 * moves on to the next process (as a load balancer would) and keeps the unanswered write for the
 * test to retry with its key.
 */
export function writeLoad(
  cluster: Cluster,
  partner: ClusterPartner,
  merchantId: string,
  vaultToken: string,
  writers = 6,
): WriteLoad {
  const writes: Write[] = [];
  let stopped = false;
  const acknowledged = () => writes.filter((w) => w.answer && w.answer.status < 300).length;
  const writer = async (n: number) => {
    let target = n;
    for (let i = 0; !stopped; i++) {
      const member = cluster.at(target);
      const write: Write =
        (n + i) % 4 === 0
          ? {
              op: 'customer',
              key: randomUUID(),
              path: `/merchants/${merchantId}/customers`,
              body: { email: `payer${n}.${i}@chaos.test` },
              member: member.index,
              answer: null,
            }
          : {
              op: 'sale',
              key: randomUUID(),
              path: '/transactions',
              body: {
                type: 'SALE',
                merchant_id: merchantId,
                amount: '10.00',
                currency: 'USD',
                vault_token: vaultToken,
                use_type: 'ONE_TIME_FUTURE',
              },
              member: member.index,
              answer: null,
            };
      writes.push(write);
      try {
        write.answer = await partner.on(member).post(write.path, write.body, { idempotencyKey: write.key });
        if (write.answer.status >= 300) await sleep(50);
      } catch {
        target += 1; // no answer: this process is gone; the next write goes elsewhere
        await sleep(50);
      }
    }
  };
  const running = Promise.all(Array.from({ length: writers }, (_, n) => writer(n)));
  return {
    writes,
    untilAcknowledged: async (count) => {
      const target = acknowledged() + count;
      while (acknowledged() < target) await sleep(10);
    },
    stop: async () => {
      stopped = true;
      await running;
      return writes;
    },
  };
}

/** The write sent again, with its key and its body, to `member`, until its answer is definite. */
export function resend(partner: ClusterPartner, member: Member, write: Write): Promise<ApiResponse> {
  return retryUntilDefinite(
    () => partner.on(member).post(write.path, write.body, { idempotencyKey: write.key }),
    60_000,
  );
}

/**
 * Checks the event store against the writes: each key made exactly one transaction (or customer),
 * each transaction was approved at most once, and the gateway captured exactly once per approved
 * SALE. Returns the problems found (none is the expected answer).
 */
export async function duplicatesIn(db: Pool, writes: Write[]): Promise<string[]> {
  const problems: string[] = [];
  const created = await db.query<{ key: string; n: number }>(
    `select metadata->>'idempotency_key' as key, count(*)::int as n from event_store.events
      where type in ('TransactionInitiated', 'CustomerCreated') and metadata->>'idempotency_key' = any($1::text[])
      group by 1`,
    [writes.map((w) => w.key)],
  );
  const byKey = new Map(created.rows.map((row) => [row.key, row.n]));
  for (const write of writes) {
    const n = byKey.get(write.key) ?? 0;
    if (n !== 1) problems.push(`${write.op} ${write.key}: ${n} records`);
  }
  const approvals = await db.query<{ stream: string; n: number }>(
    `select stream_name as stream, count(*)::int as n from event_store.events
      where type = 'TransactionApproved' group by 1 having count(*) > 1`,
  );
  for (const row of approvals.rows) problems.push(`${row.stream} approved ${row.n} times`);
  const captures = await db.query<{ approved: number; captured: number }>(
    `select (select count(*)::int from event_store.events e where e.type = 'TransactionApproved'
               and exists (select 1 from event_store.events i where i.stream_name = e.stream_name
                            and i.type = 'TransactionInitiated' and i.data->>'type' = 'SALE')) as approved,
            (select count(*)::int from sandbox_gateway.transactions where kind = 'CAPTURE') as captured`,
  );
  const { approved, captured } = captures.rows[0];
  if (approved !== captured) problems.push(`${approved} SALEs approved, ${captured} captures at the gateway`);
  return problems;
}
