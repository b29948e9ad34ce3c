import { Client } from 'pg';
import { QueryFailedError } from 'typeorm';
import { createTestDatabase, dropTestDatabase } from '../../../../test/support/database';
import { toProblem } from '../problem/problem.filter';
import { DomainError } from '../problem/domain-error';
import { freePort } from './embedded-postgres';
import { DatabaseUnavailable, isDatabaseUnavailable } from './database-unavailable';

/** What the real driver throws for `sql` (or for connecting, when `sql` is null). */
async function errorOf(connectionString: string, sql: string | null): Promise<unknown> {
  const client = new Client({ connectionString });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (sql) await client.query(sql);
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error(`no error from ${sql ?? 'connect'}`);
}

class MerchantGone extends DomainError {
  readonly code = 'merchant_not_found';
}

/**
 * "An unreachable database answers 503 problem+json with Retry-After, never 500": the errors the
 * drivers really raise when the database goes away, told apart from errors of the query itself.
 */
describe('a lost database as the API answers it', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase('unavailable');
  });
  afterAll(() => dropTestDatabase(url));

  it('recognises a refused connection, a connection the server terminated, and the same wrapped by TypeORM', async () => {
    const closed = new URL(url);
    closed.port = String(await freePort());
    const refused = await errorOf(closed.toString(), null);
    expect(isDatabaseUnavailable(refused)).toBe(true);

    // The server ends the session as it does on shutdown (57P01 admin_shutdown).
    const victim = new Client({ connectionString: url });
    victim.on('error', () => undefined);
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
    const killer = new Client({ connectionString: url });
    await killer.connect();
    await killer.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await killer.end();
    const terminated = await victim.query('select 1').then(
      () => null,
      (error: unknown) => error,
    );
    await victim.end().catch(() => undefined);
    expect(terminated).not.toBeNull();
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('select 1', [], terminated as Error))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: refused }))).toBe(true);
  });

  it('does not take a bad query, a broken rule or a domain error for an outage', async () => {
    const syntax = await errorOf(url, 'select from where');
    const missing = await errorOf(url, 'select * from no_such_table');
    const unique = await errorOf(
      url,
      'create temp table t (id int primary key); insert into t values (1); insert into t values (1)',
    );
    for (const error of [syntax, missing, unique, new MerchantGone('gone'), new Error('boom'), null]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    expect(toProblem(unique).body.status).toBe(500);
  });

  it('answers 503 service_unavailable, retryable, with Retry-After, for every form of it', async () => {
    const closed = new URL(url);
    closed.port = String(await freePort());
    const refused = await errorOf(closed.toString(), null);
    for (const error of [refused, new DatabaseUnavailable('the embedded PostgreSQL exited')]) {
      const { body, headers } = toProblem(error);
      expect(body).toMatchObject({ status: 503, code: 'service_unavailable', retryable: true });
      expect(Number(headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
