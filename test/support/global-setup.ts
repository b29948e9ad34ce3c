import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmbeddedPostgres } from '../../libs/platform/src/database/embedded-postgres';

/**
 * Starts one embedded PostgreSQL for the whole run (or uses TEST_DATABASE_URL when given).
 * Each test file makes its own database on it with `createTestDatabase()`.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'payments-test-'));
  chmodSync(dir, 0o755); // the server may run as the `postgres` user
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), unsafeFast: true });
  process.env.TEST_DATABASE_URL = db.url;
  (globalThis as Record<string, unknown>).__EMBEDDED_PG__ = { db, dir };
}
