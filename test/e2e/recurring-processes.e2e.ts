/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { callerFor } from '../support/app';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { payHostedPageByCard, TO_ACTIVE } from '../support/payments';
import { buildOnce, startProcess, waitForHealth, type ServiceProcess } from '../support/process';
import { RECURRING_WORKERS } from '../../libs/recurring/src';

const DAY = 86_400;
// More than one process's workers take at once, so both processes find contracts to charge.
const CONTRACTS = 3 * RECURRING_WORKERS;

/**
 * Two app processes, as `npm start` runs them, on one database (docs/recurring.md "Scheduler"):
 * both schedulers work the same due contracts at the same time and every installment is charged
 * exactly once; one of them killed in the middle of a pass, the other finishes its work and still
 * charges nothing twice.
 */
describe('two processes charging one book of contracts', () => {
  const operatorKey = generateKey('cop').key;
  const vaultKey = Buffer.alloc(32, 7).toString('base64');
  let dataRoot: string;
  let databaseUrl: string;
  const processes: ServiceProcess[] = [];
  const urls: string[] = [];

  /** A JSON call to process `n` with a key; writes get a fresh Idempotency-Key. */
  const call = async (n: number, method: string, route: string, key: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (method !== 'GET') headers['idempotency-key'] = randomUUID();
    const res = await callerFor(urls[n])(method, `/api/v1${route}`, { body, headers });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const op = (n: number, method: string, route: string, body?: unknown) =>
    call(n, method, route, operatorKey, body);

  beforeAll(async () => {
    buildOnce();
    dataRoot = mkdtempSync(path.join(tmpdir(), 'payments-recurring-'));
    chmodSync(dataRoot, 0o755);
    databaseUrl = await createTestDatabase('recurring_processes');
    for (const n of [0, 1]) {
      const port = await freePort();
      const proc = startProcess({
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dataRoot, `p${n}`),
        PLATFORM_OPERATOR_KEY: operatorKey,
        VAULT_KEY: vaultKey,
        // Each pass that charged something logs a line with its tally: how each process shared the work.
        LOG_LEVEL: 'info',
      });
      processes.push(proc);
      urls.push(`http://127.0.0.1:${port}`);
      // One after the other: the second finds the migrations applied.
      await waitForHealth(urls[n], proc);
    }
  }, 120_000);

  afterAll(async () => {
    for (const proc of processes)
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await dropTestDatabase(databaseUrl);
    rmSync(dataRoot, { recursive: true, force: true });
  });

  it('both schedulers at once: each due installment charged exactly once; a killed one changes nothing', async () => {
    // A partner, an ACTIVE merchant and a card saved through the hosted page, all on process 0.
    const partner = await op(0, 'POST', '/platform/partners', {
      name: 'Two Process Software',
      contact_email: 'dev@two.test',
      contact_name: 'Ada',
    });
    const key = (await op(0, 'POST', `/platform/partners/${partner.body.id}/api-keys`, {})).body
      .api_key as string;
    const api = (n: number, method: string, route: string, body?: unknown) =>
      call(n, method, route, key, body);
    const merchant = await api(0, 'POST', '/merchants', {
      business_name: 'Shared Gym',
      contact_email: 'gym@two.test',
      contact_name: 'Sam',
      merchant_category_code: '7997',
    });
    const merchantId = merchant.body.id as string;
    await api(0, 'POST', `/merchants/${merchantId}/submit`);
    for (const action of TO_ACTIVE) {
      expect((await op(0, 'POST', `/platform/merchants/${merchantId}/transitions`, { action })).status).toBe(
        200,
      );
    }
    const session = await api(0, 'POST', '/hpp/sessions', {
      merchant_id: merchantId,
      page_purpose: 'save_payment_method',
      credential_usages: ['RECURRING'],
    });
    const saved = await payHostedPageByCard(session.body.hpp_url);
    expect(saved.status).toBe(303);
    const token = (await api(0, 'GET', `/hpp/sessions/${session.body.id}`)).body.vault_token as string;

    const now = async (n: number) => (await op(n, 'GET', '/platform/sandbox/clock')).body.now as string;
    const tomorrow = new Date(Date.parse(await now(0)) + DAY * 1000).toISOString().slice(0, 10);
    const ids: string[] = [];
    for (let i = 0; i < CONTRACTS; i++) {
      const created = await api(i % 2, 'POST', '/contracts', {
        merchant_id: merchantId,
        payment_method_type: 'CARD',
        payment_method_token: token,
        amount: '3.00',
        frequency: 'DAILY',
        start_date: tomorrow,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }

    /** Process 0 moves the clock (and charges in that request); process 1 is told to charge at the same time. */
    const bothAt = async (days: number) => {
      const target = Date.parse(await now(0)) + days * DAY * 1000;
      const advancing = op(0, 'POST', '/platform/sandbox/clock', { advance_seconds: days * DAY });
      // Process 1 follows the shared clock (its GET reads the advance the moment it is recorded).
      while (Date.parse(await now(1)) < target) await new Promise((r) => setTimeout(r, 20));
      const running = op(1, 'POST', '/platform/recurring/run');
      return Promise.all([advancing, running]);
    };

    /** What process `n`'s scheduler passes charged, from their log lines. */
    const chargedBy = (n: number) =>
      processes[n]
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"msg":"recurring pass"'))
        .reduce((sum, line) => sum + (JSON.parse(line) as { charged: number }).charged, 0);

    // Three days fall due (tomorrow, and the two after it) for every contract, on both at once.
    const [, second] = await bothAt(3);
    expect(second.status).toBe(200);
    // Both processes charged, and between them exactly what fell due.
    expect(chargedBy(0)).toBeGreaterThan(0);
    expect(chargedBy(1)).toBeGreaterThan(0);
    expect(chargedBy(0) + chargedBy(1)).toBe(CONTRACTS * 3);

    const installmentsOf = async (id: string) => {
      const events = (await op(1, 'GET', `/platform/streams/contract-${id}/events?limit=1000`)).body
        .data as any[];
      return events.filter((e) => e.type === 'ContractInstallmentCharged').map((e) => e.data);
    };
    const transactions = async () => {
      const all: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await api(
          1,
          'GET',
          `/transactions?merchant_id=${merchantId}&page_size=100${cursor ? `&cursor=${cursor}` : ''}`,
        );
        all.push(...page.body.data);
        cursor = page.body.pagination.next_cursor;
      } while (cursor);
      return all;
    };
    for (const id of ids) expect((await installmentsOf(id)).map((c) => c.installment)).toEqual([1, 2, 3]);
    let txs = await transactions();
    expect(txs).toHaveLength(CONTRACTS * 3);
    expect(txs.every((t) => t.state === 'CAPTURED')).toBe(true);

    // Two more days: process 0 is killed in the middle of its pass; process 1 finishes the work.
    const target = Date.parse(await now(0)) + 2 * DAY * 1000;
    void op(0, 'POST', '/platform/sandbox/clock', { advance_seconds: 2 * DAY }).catch(() => undefined);
    while (Date.parse(await now(1)) < target) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 150));
    processes[0].child.kill('SIGKILL');
    await processes[0].exited;
    // The dead process's keys are taken over once their lease (5 s) runs out; until then it may
    // leave a charge in flight, which a later pass resolves.
    const deadline = Date.now() + 60_000;
    for (;;) {
      await op(1, 'POST', '/platform/recurring/run');
      const done = await Promise.all(ids.map(async (id) => (await installmentsOf(id)).length === 5));
      if (done.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('process 1 did not finish the dead process’s work');
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const id of ids) {
      const charged = await installmentsOf(id);
      expect(charged.map((c) => c.installment)).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(charged.map((c) => c.transactionId)).size).toBe(5);
      const contract = (await api(1, 'GET', `/contracts/${id}`)).body;
      expect(contract).toMatchObject({ state: 'ACTIVE', amount_paid: '15.00', retry_count: 0 });
    }
    // The dead process may have written its last charges a moment before it died: process 1's
    // transaction list shows them once its projector has caught up with the head.
    const listDeadline = Date.now() + 30_000;
    for (;;) {
      const status = (await op(1, 'GET', '/platform/projections')).body.data as any[];
      if (Number(status.find((p) => p.name === 'transaction-list').lag) === 0) break;
      if (Date.now() > listDeadline) throw new Error('transaction-list did not catch up');
      await new Promise((r) => setTimeout(r, 100));
    }
    txs = await transactions();
    expect(txs).toHaveLength(CONTRACTS * 5);
    expect(txs.every((t) => t.state === 'CAPTURED')).toBe(true);
  }, 180_000);
});
