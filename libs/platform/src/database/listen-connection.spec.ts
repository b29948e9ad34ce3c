import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { LISTEN_APPLICATION_NAME, ListenConnection, type Listening } from './listen-connection';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('ListenConnection: one LISTEN connection per process and database', () => {
  let url: string;
  let pool: Pool;
  const open: Listening[] = [];

  const listeners = async (): Promise<{ pid: number; query: string; state: string }[]> =>
    (
      await pool.query<{ pid: number; query: string; state: string }>(
        `select pid, query, state from pg_stat_activity where application_name = $1 and datname = current_database()`,
        [LISTEN_APPLICATION_NAME],
      )
    ).rows;

  function subscribe(channel: string, heard: string[], errors: unknown[] = []): Listening {
    const listening = ListenConnection.subscribe(url, channel, {
      notify: (payload) => heard.push(payload),
      error: (error) => errors.push(error),
    });
    open.push(listening);
    listening.ensure();
    return listening;
  }

  beforeAll(async () => {
    url = await createTestDatabase('listen_connection');
    pool = new Pool({ connectionString: url, max: 4 });
  });
  afterAll(async () => {
    for (const listening of open) await listening.close();
    await pool.end();
    await dropTestDatabase(url);
  });

  it('serves every channel and subscriber on one connection, each hearing its own channel', async () => {
    const a1: string[] = [];
    const a2: string[] = [];
    const b: string[] = [];
    subscribe('channel_a', a1);
    subscribe('channel_a', a2);
    subscribe('channel_b', b);
    // Each is told '' once its channel is listened to (what came before reached nobody).
    await waitUntil(() => a1.includes('') && a2.includes('') && b.includes(''), 'the channels listened to');
    expect(await listeners()).toHaveLength(1);

    await pool.query(`select pg_notify('channel_a', 'Opened'), pg_notify('channel_b', 'Closed')`);
    await waitUntil(() => a1.includes('Opened') && a2.includes('Opened') && b.includes('Closed'), 'both');
    expect(a1.filter(Boolean)).toEqual(['Opened']);
    expect(b.filter(Boolean)).toEqual(['Closed']);
  });

  it('reconnects after its connection is killed: every subscriber is told once, and hears again', async () => {
    const heard: string[] = [];
    const other: string[] = [];
    const errors: unknown[] = [];
    const listening = subscribe('channel_c', heard, errors);
    subscribe('channel_d', other);
    await waitUntil(() => heard.includes('') && other.includes(''), 'listening');
    await waitUntil(async () => (await listeners()).every((l) => l.state === 'idle'), 'idle');
    const [before] = await listeners();
    heard.length = 0;
    other.length = 0;
    await pool.query('select pg_terminate_backend($1)', [before.pid]);
    await waitUntil(() => heard.includes('') && other.includes(''), 'the wake-up of a lost connection');
    expect(errors).toHaveLength(1);

    listening.ensure(); // what a subscriber does before it sleeps again
    await waitUntil(async () => {
      const now = await listeners();
      return now.length === 1 && now[0].pid !== before.pid && now[0].state === 'idle';
    }, 'a new connection');
    // Both channels: each is LISTENed in turn on the new connection, and a NOTIFY sent before its
    // LISTEN took effect reaches nobody (by design: notifications are hints).
    const toldTwice = (payloads: string[]) => payloads.filter((p) => p === '').length >= 2;
    await waitUntil(() => toldTwice(heard) && toldTwice(other), 'listening again');
    await pool.query(`select pg_notify('channel_c', 'Again'), pg_notify('channel_d', 'Too')`);
    await waitUntil(() => heard.includes('Again') && other.includes('Too'), 'notifications again');
  });

  it('closes the connection when its last subscriber leaves', async () => {
    for (const listening of open.splice(0)) await listening.close();
    await waitUntil(async () => (await listeners()).length === 0, 'the connection to close');
  });
});
