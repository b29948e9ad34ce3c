import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Pool } from 'pg';
import { FixedClock } from '../../../../libs/platform/src/clock/clock';
import { useTestEventStore } from '../../../../test/support/event-store';
import { testMetadata } from '../../../../test/support/metadata';
import { history, HISTORY_PAGE } from './commands';
import { outputFor } from './output';
import { ensureReadOnlyRole, readOnlyPassword } from './read-only-role';

describe('the operator CLI commands', () => {
  const db = useTestEventStore('ops_commands', new FixedClock(new Date('2026-11-01T00:00:00Z')));

  it('history prints a long stream page by page, in order, as JSON lines when asked for JSON', async () => {
    const id = '5f0c8f1e-4b7a-4c2e-9d3b-0a1b2c3d4e5f';
    const total = HISTORY_PAGE * 2 + 17;
    for (let from = 0; from < total; from += 500) {
      const count = Math.min(500, total - from);
      await db.store.appendToStream(
        `merchant-${id}`,
        Array.from({ length: count }, (_, i) => ({ type: 'Counted', data: { n: from + i } })),
        { expectedRevision: from === 0 ? 'no_stream' : BigInt(from - 1), metadata: testMetadata() },
      );
    }
    const lines: string[] = [];
    const code = await history(
      db.store,
      outputFor(true, (t) => void lines.push(t)),
      'merchant',
      id,
    );
    expect(code).toBe(0);
    const events = lines.map((l) => JSON.parse(l));
    expect(events).toHaveLength(total);
    expect(events.map((e) => e.data.n)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(events[0]).toMatchObject({
      revision: '0',
      type: 'Counted',
      metadata: { actor: expect.any(String) },
    });
  });

  it('history of a stream with no events answers 1', async () => {
    const code = await history(
      db.store,
      outputFor(true, () => undefined),
      'merchant',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(code).toBe(1);
  });

  it('a person at a terminal gets an aligned table', () => {
    let text = '';
    outputFor(false, (t) => void (text += t)).rows(
      [
        { name: 'partner-list', lag: 0 },
        { name: 'transaction-list', lag: 12 },
      ],
      ['name', 'lag'],
    );
    expect(text.split('\n')).toEqual([
      'name              lag',
      '────────────────  ───',
      'partner-list      0',
      'transaction-list  12',
      '',
    ]);
  });

  it('sql makes a read-only role that reads every table, tables made later too, and writes nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ops-sql-'));
    const file = path.join(dir, '.readonly-password');
    const password = readOnlyPassword(file);
    expect(readOnlyPassword(file)).toBe(password);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9]{20,}$/);

    const admin = new Pool({ connectionString: db.pool.options.connectionString });
    const table = `analyst_probe_${randomBytes(3).toString('hex')}`;
    await admin.query(`create table ${table} (n int)`);
    await admin.query(`insert into ${table} values (1)`);
    const url = await ensureReadOnlyRole(admin, db.pool.options.connectionString!, password);
    expect(new URL(url).username).toBe('payments_readonly');
    // A table created after the grant (a migration, a rebuild's swap) is readable too.
    const later = `${table}_later`;
    await admin.query(`create table ${later} (n int)`);

    const analyst = new Client({ connectionString: url });
    await analyst.connect();
    try {
      expect((await analyst.query(`select n from ${table}`)).rows).toEqual([{ n: 1 }]);
      expect((await analyst.query(`select count(*)::int as c from ${later}`)).rows).toEqual([{ c: 0 }]);
      expect(
        (await analyst.query('select count(*)::int as c from event_store.events')).rows[0].c,
      ).toBeGreaterThan(0);
      await expect(analyst.query(`insert into ${table} values (2)`)).rejects.toThrow(
        /read-only|permission denied/,
      );
      await expect(analyst.query(`create table sneaky (n int)`)).rejects.toThrow(
        /read-only|permission denied/,
      );
    } finally {
      await analyst.end();
      await admin.end();
    }
  });
});
