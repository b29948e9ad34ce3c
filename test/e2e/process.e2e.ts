import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort, runningEmbeddedPostgresUrl } from '../../libs/platform/src/database/embedded-postgres';
import {
  buildOnce,
  ROOT,
  startProcess as startServiceProcess,
  waitForHealth,
  type ServiceProcess,
} from '../support/process';
import { checkedFetch } from '../support/checked-fetch';

/**
 * The service as `npm start` runs it: a real process, the embedded PostgreSQL in DATA_DIR,
 * signals, restarts. These are the newcomer's two commands, minus `npm`.
 */
describe('the service process', () => {
  let dataRoot: string;

  beforeAll(() => {
    buildOnce();
    dataRoot = mkdtempSync(path.join(tmpdir(), 'payments-process-'));
    chmodSync(dataRoot, 0o755);
  }, 120_000);
  // A failed test must not leave a service behind (its database's guardian then stops that too).
  const started: ServiceProcess[] = [];
  const startProcess = (env: Record<string, string>): ServiceProcess => {
    const proc = startServiceProcess(env);
    started.push(proc);
    return proc;
  };
  afterAll(() => {
    for (const proc of started)
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    rmSync(dataRoot, { recursive: true, force: true });
  });

  it('refuses a bad variable with one line naming it, and exit code 2', async () => {
    const proc = startProcess({ PORT: 'eighty', DATA_DIR: path.join(dataRoot, 'unused') });
    expect(await proc.exited).toBe(2);
    expect(proc.stderr().trim()).toBe(
      'invalid configuration: PORT="eighty": must be a whole number from 0 to 65535',
    );
  });

  it('refuses a busy port with one clear line', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    try {
      const proc = startProcess({ PORT: String(port), DATA_DIR: path.join(dataRoot, 'busy') });
      expect(await proc.exited).toBe(2);
      expect(proc.stderr().trim()).toBe(
        `port ${port} on 127.0.0.1 is busy: stop the other process or set PORT`,
      );
    } finally {
      blocker.close();
    }
  });

  it('starts on an embedded database, stops gracefully on SIGTERM, resumes on the same DATA_DIR, and refuses a second instance', async () => {
    const dataDir = path.join(dataRoot, 'data');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;

    const first = startProcess({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(url, first);
    const health = await checkedFetch(`${url}/api/v1/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();

    // First start in sandbox without PLATFORM_OPERATOR_KEY: a key is printed once, as plain text.
    const printed = /cop_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,}/.exec(first.stdout());
    expect(printed).not.toBeNull();
    const operatorKey = printed![0];
    const created = await checkedFetch(`${url}/api/v1/platform/partners`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${operatorKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'process-test-partner',
      },
      body: JSON.stringify({ name: 'Acme', contact_email: 'a@acme.test', contact_name: 'Ada' }),
    });
    expect(created.status).toBe(201);
    const partnerId = ((await created.json()) as { id: string }).id;

    // A second instance on the same data directory must not corrupt it: a clear error instead.
    const second = startProcess({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(2);
    expect(second.stderr()).toMatch(/data directory .* is locked/);
    expect(second.stderr().trim().split('\n')).toHaveLength(1);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const logs = first
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The key is never part of the JSON log.
    expect(logs.some((l) => JSON.stringify(l).includes(operatorKey))).toBe(false);
    expect(logs.some((l) => l.msg === 'stopped')).toBe(true);

    const again = startProcess({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(url, again);
    expect(again.stdout()).not.toMatch(/cop_/); // printed once, on the first start only
    const stillValid = await checkedFetch(`${url}/api/v1/platform/partners/${partnerId}`, {
      headers: { authorization: `Bearer ${operatorKey}` },
    });
    expect(stillValid.status).toBe(200);

    // The service reaches its embedded database over the Unix socket (no client address), not TCP.
    const admin = new Client({
      connectionString: runningEmbeddedPostgresUrl(path.join(dataDir, 'postgres'))!,
    });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ socket: number; tcp: number }>(
        `select count(*) filter (where client_addr is null)::int as socket,
                count(*) filter (where client_addr is not null)::int as tcp
           from pg_stat_activity where application_name like 'partner-payments%'`,
      );
      expect(rows[0].socket).toBeGreaterThan(0);
      expect(rows[0].tcp).toBe(0);
    } finally {
      await admin.end();
    }

    // The operator CLI works beside the running service, on the database it holds.
    // Asynchronous, so the test's own HTTP connections stay serviced while a command runs (a
    // blocked event loop would hand a fetch a keep-alive socket the server already closed).
    const ops = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(ROOT, 'dist', 'apps', 'api', 'src', 'ops.js'), ...args],
          {
            env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    // Piped, every command writes JSON lines (a person at a terminal gets a table).
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const projections = await ops('projections');
    expect(projections.status).toBe(0);
    expect(lines(projections.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'partner-list', lag: 0 })]),
    );
    // The running service's projectors, not the command line's own (never started) runner.
    const states = lines(projections.stdout).map((p) => p.state);
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['running']));
    const audit = await ops('history', 'partner', partnerId);
    expect(audit.status).toBe(0);
    expect(audit.stdout).toContain('PartnerCreated');
    expect(audit.stdout).toContain('process-test-partner'); // the idempotency key in the metadata
    // A rebuild from the command line swaps the read model under the running service.
    const rebuilt = await ops('rebuild', 'partner-list');
    expect(rebuilt.status).toBe(0);
    const listed = await checkedFetch(`${url}/api/v1/platform/partners`, {
      headers: { authorization: `Bearer ${operatorKey}` },
    });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((p) => p.id)).toEqual([partnerId]);
    const history = await ops('history', 'partner', '00000000-0000-4000-8000-000000000000');
    expect(history.status).toBe(1);
    expect(history.stderr).toContain('no events for partner');
    expect((await ops('history', 'partner', 'not-a-uuid')).status).toBe(2);
    // Every command explains itself.
    for (const command of ['history', 'projections', 'rebuild', 'sql']) {
      const help = await ops(command, '--help');
      expect(help.status).toBe(0);
      expect(help.stdout).toContain(`npm run ops -- ${command}`);
    }
    // How an analyst connects read-only, beside the running service.
    const connect = await ops('sql');
    expect(connect.status).toBe(0);
    const { url: readOnlyUrl } = lines(connect.stdout)[0] as { url: string };
    // A role of its own: the superuser's password is never printed.
    const superuserPassword = readFileSync(path.join(dataDir, '.postgres-password'), 'utf8').trim();
    expect(connect.stdout + connect.stderr).not.toContain(superuserPassword);
    const analyst = new Client({ connectionString: readOnlyUrl });
    await analyst.connect();
    try {
      const { rows } = await analyst.query('select id from partner_list');
      expect(rows.map((r) => r.id)).toEqual([partnerId]);
      // The analysts' views (docs/analysts.md) are readable too.
      const volume = await analyst.query('select count(*)::int as n from analyst.daily_volume');
      expect(volume.rows[0].n).toBe(0);
      await expect(analyst.query('delete from partner_list')).rejects.toThrow(/read-only|permission denied/);
    } finally {
      await analyst.end();
    }
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    // With no service running, nothing runs the projectors.
    const alone = await ops('projections');
    expect(alone.status).toBe(0);
    expect(new Set(lines(alone.stdout).map((p) => p.state))).toEqual(new Set(['stopped']));
  }, 120_000);
});
