import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A fresh, empty database on the test run's PostgreSQL, so test files never see each other's
 * rows. Returns its URL; `dropTestDatabase` removes it.
 */
export async function createTestDatabase(label = 'test'): Promise<string> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (npm test)');
  const name = `${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
