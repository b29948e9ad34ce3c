import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { isRunning } from '../../libs/platform/src/database/data-dir-owner';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import {
  buildOnce,
  startProcess,
  stopAndRemove,
  waitForHealth,
  type ServiceProcess,
} from '../support/process';
import { checkedFetch } from '../support/checked-fetch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "A crash never needs a person to clean up" (docs/operations.md), with the service run as
 * `npm start` runs it on an embedded database in DATA_DIR: killed with `kill -9`, alone or with its
 * whole process group, or with the guardian of its database too, the next start on the same
 * DATA_DIR is healthy within 10 s and holds every write it acknowledged; the database itself,
 * killed under the running service, is restarted while requests answer 503.
 */
describe('crash recovery of the service and its embedded database', () => {
  const operatorKey = generateKey('cop').key;
  let dataRoot: string;
  let dataDir: string;
  let url: string;
  let env: Record<string, string>;
  let service: ServiceProcess | null = null;
  /** Every partner the service answered 201 for, across all the crashes. */
  const acknowledged: string[] = [];

  const postmasterPid = (): number => {
    const file = path.join(dataDir, 'postgres', 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0;
  };
  /** The guardian shell of the running database (Linux: read from /proc). */
  const guardianPid = (postmaster: number): number => {
    for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        if (args.includes('postgres-guardian') && args.includes(String(postmaster))) return Number(entry);
      } catch {
        // gone meanwhile
      }
    }
    return 0;
  };
  const createPartner = (key = randomUUID()) =>
    checkedFetch(`${url}/api/v1/platform/partners`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${operatorKey}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({
        name: `Crash ${key.slice(0, 8)}`,
        contact_email: 'a@crash.test',
        contact_name: 'Ada',
      }),
    });

  /** Four writers creating partners until `stop`; each 201 goes into `acknowledged`. */
  const writeUnderLoad = () => {
    let stopped = false;
    const writer = async () => {
      while (!stopped) {
        try {
          const res = await createPartner();
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else {
            await res.body?.cancel();
            await sleep(20);
          }
        } catch {
          await sleep(20); // the service is gone: what was not answered was not acknowledged
        }
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    return {
      untilAcknowledged: async (count: number) => {
        const target = acknowledged.length + count;
        while (acknowledged.length < target) await sleep(10);
      },
      stop: async () => {
        stopped = true;
        await writers;
      },
    };
  };

  /** Starts the service and returns how long it took to answer 200 on /health. */
  const start = async (): Promise<number> => {
    const startedAt = performance.now();
    service = startProcess(env, { detached: true });
    return (await waitForHealth(url, service, 30_000)) - startedAt;
  };

  const expectEveryAcknowledgedWrite = async () => {
    for (const id of acknowledged) {
      const res = await checkedFetch(`${url}/api/v1/platform/partners/${id}`, {
        headers: { authorization: `Bearer ${operatorKey}` },
      });
      expect({ id, status: res.status }).toEqual({ id, status: 200 });
    }
  };

  const waitUntil = async (condition: () => boolean, timeoutMs: number): Promise<boolean> => {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (condition()) return true;
      await sleep(50);
    }
    return condition();
  };

  beforeAll(async () => {
    buildOnce();
    dataRoot = mkdtempSync(path.join(tmpdir(), 'payments-crash-'));
    chmodSync(dataRoot, 0o755); // the database may run as the `postgres` user
    dataDir = path.join(dataRoot, 'data');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = { PORT: String(port), DATA_DIR: dataDir, PLATFORM_OPERATOR_KEY: operatorKey };
    await start(); // the first start initialises the cluster: not what the 10 s are about
  }, 120_000);

  afterAll(() => stopAndRemove(service, dataRoot), 60_000);

  it('kill -9 of the service: its database stops with it, and the next start is healthy in < 10 s with every acknowledged write', async () => {
    const load = writeUnderLoad();
    await load.untilAcknowledged(8);
    const postmaster = postmasterPid();
    process.kill(service!.child.pid!, 'SIGKILL');
    await service!.exited;
    await load.stop();

    // The database does not outlive the service (its guardian stops it).
    expect(await waitUntil(() => !isRunning(postmaster), 10_000)).toBe(true);

    expect(await start()).toBeLessThan(10_000);
    await expectEveryAcknowledgedWrite();
  }, 90_000);

  it('kill -9 of its whole process group: the next start is healthy in < 10 s with every acknowledged write', async () => {
    const load = writeUnderLoad();
    await load.untilAcknowledged(8);
    const postmaster = postmasterPid();
    process.kill(-service!.child.pid!, 'SIGKILL');
    await service!.exited;
    await load.stop();

    expect(await waitUntil(() => !isRunning(postmaster), 10_000)).toBe(true);
    expect(await start()).toBeLessThan(10_000);
    await expectEveryAcknowledgedWrite();
  }, 90_000);

  it('a database left running with nobody to stop it is recognised as its own by the next start, stopped cleanly and started again', async () => {
    const load = writeUnderLoad();
    await load.untilAcknowledged(8);
    const postmaster = postmasterPid();
    const guardian = guardianPid(postmaster);
    expect(guardian).toBeGreaterThan(0);
    const crashed = service!;
    // The service and the guardian die together: the database is orphaned.
    process.kill(guardian, 'SIGKILL');
    process.kill(crashed.child.pid!, 'SIGKILL');
    await crashed.exited;
    await load.stop();
    await sleep(500);
    expect(isRunning(postmaster)).toBe(true);

    expect(await start()).toBeLessThan(10_000);
    expect(isRunning(postmaster)).toBe(false);
    const logs = service!
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logs).toContainEqual(expect.objectContaining({ pid: postmaster, owner_pid: crashed.child.pid }));
    await expectEveryAcknowledgedWrite();
  }, 90_000);

  it('the embedded database killed under load is restarted: meanwhile every answer is 200 or 503 problem+json with Retry-After, /health names the database, and nothing acknowledged is lost', async () => {
    const seen: { status: number; type: string; retryAfter: string | null; body: string }[] = [];
    let stopped = false;
    const reader = async () => {
      while (!stopped) {
        const res = await checkedFetch(`${url}/api/v1/platform/partners?page_size=5`, {
          headers: { authorization: `Bearer ${operatorKey}` },
        });
        seen.push({
          status: res.status,
          type: res.headers.get('content-type') ?? '',
          retryAfter: res.headers.get('retry-after'),
          body: await res.text(),
        });
        await sleep(20);
      }
    };
    const load = writeUnderLoad();
    const readers = Promise.all([reader(), reader()]);
    await load.untilAcknowledged(5);

    const killedAt = performance.now();
    process.kill(postmasterPid(), 'SIGKILL');
    let down: Response | null = null;
    while (performance.now() - killedAt < 5_000) {
      const res = await checkedFetch(`${url}/api/v1/health`);
      if (res.status === 503) {
        down = res;
        break;
      }
      await sleep(50);
    }
    expect(down).not.toBeNull();
    expect(down!.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(down!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await down!.json()).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryable: true,
      checks: { database: 'down' },
    });

    // Restarted without anyone's help; health is 200 again, and writes are acknowledged again.
    await waitForHealth(url, service!, 30_000);
    const before = acknowledged.length;
    await load.untilAcknowledged(3);
    stopped = true;
    await Promise.all([readers, load.stop()]);
    expect(acknowledged.length).toBeGreaterThan(before);

    const refusals = seen.filter((r) => r.status !== 200);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect({ status: refusal.status, type: refusal.type }).toEqual({
        status: 503,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
      expect(Number(refusal.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(refusal.body)).toMatchObject({ code: 'service_unavailable', retryable: true });
    }
    expect(service!.child.exitCode).toBeNull(); // the service itself never went down
    await expectEveryAcknowledgedWrite();
  }, 90_000);
});
