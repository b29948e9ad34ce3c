import type { Pool } from 'pg';

/**
 * Runs schema SQL in one transaction under a transaction-level advisory lock, so processes
 * starting together (the service and the ops CLI) never race on `create ... if not exists`.
 */
export async function migrateWithLock(pool: Pool, lockKey: [number, number], sql: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1, $2)', lockKey);
    await client.query(sql);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
