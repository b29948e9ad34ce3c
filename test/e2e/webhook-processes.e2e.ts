/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { OPERATOR_KEY } from '../support/api';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { buildOnce, startProcess, waitForHealth, type ServiceProcess } from '../support/process';
import { answer, eventually, WebhookReceiver } from '../support/webhook-receiver';
import { checkedFetch } from '../support/checked-fetch';

const VAULT_KEY = 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=';

/** A minimal HTTP client of one running process. */
function client(base: string) {
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await checkedFetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return {
    get: (path: string, key: string) => call('GET', path, key),
    post: (path: string, key: string, body?: unknown) => call('POST', path, key, body ?? {}),
  };
}

/**
 * The service as `npm start` runs it, against one PostgreSQL: deliveries survive `kill -9`
 * (at least once), and two processes sharing the database make every attempt once.
 */
describe('webhook delivery across processes', () => {
  let databaseUrl: string;
  let receiver: WebhookReceiver;
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    buildOnce();
    databaseUrl = await createTestDatabase('webhook_processes');
    receiver = await WebhookReceiver.start();
  }, 180_000);
  afterAll(async () => {
    for (const proc of running) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    await Promise.all(running.map((proc) => proc.exited));
    await receiver.close();
    await dropTestDatabase(databaseUrl);
  });

  async function start(): Promise<{ proc: ServiceProcess; api: ReturnType<typeof client> }> {
    const port = await freePort();
    const proc = startProcess({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      PLATFORM_OPERATOR_KEY: OPERATOR_KEY,
      VAULT_KEY,
      WEBHOOK_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'warn',
    });
    running.push(proc);
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, proc);
    return { proc, api: client(base) };
  }

  async function partnerWithEndpoint(api: ReturnType<typeof client>, path: string) {
    const partner = await api.post('/platform/partners', OPERATOR_KEY, {
      name: 'Acme',
      contact_email: 'dev@acme.test',
      contact_name: 'Ada',
    });
    const key = (await api.post(`/platform/partners/${partner.body.id}/api-keys`, OPERATOR_KEY)).body
      .api_key as string;
    const endpoint = await api.post('/webhook-endpoints', key, {
      url: receiver.url(path),
      enabled_events: ['merchant.created'],
    });
    expect(endpoint.status).toBe(201);
    return { key, endpointId: endpoint.body.id as string };
  }

  const emit = async (api: ReturnType<typeof client>, key: string, name: string) => {
    const res = await api.post('/merchants', key, {
      business_name: name,
      contact_email: 'sam@bakery.test',
      contact_name: 'Sam Baker',
      merchant_category_code: '5812',
    });
    expect(res.status).toBe(201);
  };

  /** The endpoint's deliveries ([] while the process is busy answering something else). */
  const allDeliveries = async (api: ReturnType<typeof client>, key: string, endpointId: string) => {
    const res = await api.get(`/webhook-endpoints/${endpointId}/deliveries?page_size=100`, key);
    return res.status === 200 ? (res.body.data as any[]) : [];
  };

  it('kill -9 while deliveries are in flight or pending: after a restart every one arrives (at least once)', async () => {
    const held: (() => void)[] = [];
    receiver.behaviour = (_r, res) => void held.push(() => res.destroy());
    const first = await start();
    const { key, endpointId } = await partnerWithEndpoint(first.api, '/killed');
    const events = 20;
    for (let i = 0; i < events; i++) await emit(first.api, key, `Merchant ${i}`);
    // Some attempts are in flight (the receiver holds them) when the process dies.
    await receiver.waitFor((r) => r.filter((x) => x.headers['webhook-id']).length >= 5);
    first.proc.child.kill('SIGKILL');
    expect(await first.proc.exited).toBeNull();
    held.forEach((release) => release());
    receiver.behaviour = answer(200);

    const second = await start();
    const delivered = await eventually(
      () => allDeliveries(second.api, key, endpointId),
      (list) => list.length === events && list.every((d) => d.state === 'SUCCEEDED'),
      30_000,
      250,
    );
    const ids = new Set(delivered.map((d) => d.event_id));
    expect(ids.size).toBe(events);
    for (const id of ids) expect(receiver.of(id).length).toBeGreaterThanOrEqual(1);
    second.proc.child.kill('SIGTERM');
    expect(await second.proc.exited).toBe(0);
  }, 120_000);

  it('two processes on one database: every attempt is made once', async () => {
    receiver.behaviour = answer(200);
    const [a, b] = await Promise.all([start(), start()]);
    const { key, endpointId } = await partnerWithEndpoint(a.api, '/shared');
    const events = 60;
    await Promise.all(
      Array.from({ length: events }, (_, i) => emit(i % 2 === 0 ? a.api : b.api, key, `Shared ${i}`)),
    );
    const delivered = await eventually(
      () => allDeliveries(b.api, key, endpointId),
      (list) => list.length === events && list.every((d) => d.state === 'SUCCEEDED'),
      30_000,
      250,
    );
    for (const delivery of delivered) {
      expect(delivery.attempts).toHaveLength(1);
      expect(receiver.of(delivery.event_id)).toHaveLength(1);
    }
    a.proc.child.kill('SIGTERM');
    b.proc.child.kill('SIGTERM');
    expect(await Promise.all([a.proc.exited, b.proc.exited])).toEqual([0, 0]);
  }, 120_000);
});
