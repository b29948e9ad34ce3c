/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { OPERATOR_KEY } from '../support/api';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { TO_ACTIVE } from '../support/payments';
import { buildOnce, startProcess, waitForHealth, type ServiceProcess } from '../support/process';

/** A minimal HTTP client of one running process. */
function client(base: string) {
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' || method === 'DELETE' ? {} : { 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
  };
  return {
    get: (path: string, key: string) => call('GET', path, key),
    post: (path: string, key: string, body?: unknown) => call('POST', path, key, body ?? {}),
    delete: (path: string, key: string) => call('DELETE', path, key),
  };
}
type Api = ReturnType<typeof client>;

/**
 * The read caches of what every request reads (docs/adr/0008-write-path.md), on real processes
 * sharing one database: a change made through one process is refused by the others within the
 * caches' bound (READ_CACHE_MAX_AGE_MS, 1 s by default), and, through the event stream's
 * notification, long before it: a process whose caches would keep an entry for a minute refuses
 * the change within moments all the same.
 */
describe('read caches across processes', () => {
  let databaseUrl: string;
  const running: ServiceProcess[] = [];
  let writer: Api;
  /** Default bound: 1 s. */
  let bounded: Api;
  /** Entries kept up to a minute: only the notification can make it see a change in time. */
  let notified: Api;

  async function start(env: Record<string, string> = {}): Promise<Api> {
    const port = await freePort();
    const proc = startProcess({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      PLATFORM_OPERATOR_KEY: OPERATOR_KEY,
      VAULT_KEY: 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=',
      LOG_LEVEL: 'warn',
      ...env,
    });
    running.push(proc);
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, proc);
    return client(base);
  }

  beforeAll(async () => {
    buildOnce();
    databaseUrl = await createTestDatabase('read_caches');
    writer = await start();
    [bounded, notified] = await Promise.all([start(), start({ READ_CACHE_MAX_AGE_MS: '60000' })]);
  }, 180_000);
  afterAll(async () => {
    for (const proc of running) if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
    await Promise.all(running.map((proc) => proc.exited));
    await dropTestDatabase(databaseUrl);
  });

  async function newPartner(): Promise<{ id: string; key: string; keyId: string }> {
    const partner = await writer.post('/platform/partners', OPERATOR_KEY, {
      name: 'Acme',
      contact_email: 'dev@acme.test',
      contact_name: 'Ada',
    });
    expect(partner.status).toBe(201);
    const key = await writer.post(`/platform/partners/${partner.body.id}/api-keys`, OPERATOR_KEY);
    expect(key.status).toBe(201);
    return { id: partner.body.id, key: key.body.api_key, keyId: key.body.id };
  }

  /**
   * Sends `request` until `refused` holds for its answer; the time from `since` to the sending of
   * the first refused request, in ms (requests sent later than that are refused by then).
   */
  async function refusedAfter(
    since: number,
    request: () => Promise<{ status: number; body: any }>,
    refused: (res: { status: number; body: any }) => boolean,
  ): Promise<number> {
    for (;;) {
      const sentAt = performance.now();
      if (sentAt - since > 30_000) throw new Error('never refused');
      if (refused(await request())) return sentAt - since;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('a revoked API key is refused by every process within the bound, usually at once', async () => {
    const partner = await newPartner();
    // Both readers have the key cached.
    for (const api of [bounded, notified]) {
      for (let i = 0; i < 3; i++) expect((await api.get('/merchants', partner.key)).status).toBe(200);
    }
    const revoke = await writer.delete(
      `/platform/partners/${partner.id}/api-keys/${partner.keyId}`,
      OPERATOR_KEY,
    );
    expect(revoke.status).toBe(204);
    const revokedAt = performance.now();
    const [onBounded, onNotified] = await Promise.all(
      [bounded, notified].map((api) =>
        refusedAfter(
          revokedAt,
          () => api.get('/merchants', partner.key),
          (res) => res.status === 401,
        ),
      ),
    );
    expect(onBounded).toBeLessThanOrEqual(1000);
    // Well before its own minute: the notification did it.
    expect(onNotified).toBeLessThan(10_000);
  });

  it('a suspended merchant is refused by every process within the bound, usually at once', async () => {
    const partner = await newPartner();
    const merchant = await writer.post('/merchants', partner.key, {
      business_name: 'Cached Cafe',
      contact_email: 'owner@cached.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
    });
    expect(merchant.status).toBe(201);
    const id = merchant.body.id;
    expect((await writer.post(`/merchants/${id}/submit`, partner.key)).status).toBe(200);
    for (const action of TO_ACTIVE) {
      expect(
        (await writer.post(`/platform/merchants/${id}/transitions`, OPERATOR_KEY, { action })).status,
      ).toBe(200);
    }
    const session = () => ({
      merchant_id: id,
      amount: '25.00',
      currency: 'USD',
      amount_mode: 'fixed',
      page_purpose: 'payment',
    });
    // Both readers have the ACTIVE merchant cached.
    for (const api of [bounded, notified]) {
      for (let i = 0; i < 3; i++)
        expect((await api.post('/hpp/sessions', partner.key, session())).status).toBe(201);
    }
    const suspended = await writer.post(`/platform/merchants/${id}/transitions`, OPERATOR_KEY, {
      action: 'suspend',
      reason: 'fraud review',
    });
    expect(suspended.status).toBe(200);
    const suspendedAt = performance.now();
    const [onBounded, onNotified] = await Promise.all(
      [bounded, notified].map((api) =>
        refusedAfter(
          suspendedAt,
          () => api.post('/hpp/sessions', partner.key, session()),
          (res) => res.status === 422 && res.body.code === 'merchant_not_transactable',
        ),
      ),
    );
    expect(onBounded).toBeLessThanOrEqual(1000);
    expect(onNotified).toBeLessThan(10_000);
  });
});
