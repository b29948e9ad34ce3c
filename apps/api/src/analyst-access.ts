import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Pool } from 'pg';
import { ANALYST_ROLE } from '../../../projections';

export { ANALYST_ROLE };

/** Where the analyst role's password is kept between calls (owner-only), next to the database. */
export const ANALYST_PASSWORD_FILE = 'analyst.password';

/**
 * Read-only SQL access for analysts (docs/analysts.md): the role the analyst migration created,
 * given a login and a password of its own (generated once, kept in `DATA_DIR/analyst.password`,
 * readable only by this user), and the connection string that uses it. The superuser's password
 * is never part of the answer: the string is built from the database's host, port and name only.
 */
export async function analystConnection(pool: Pool, databaseUrl: string, dataDir: string): Promise<string> {
  const role = await pool.query('select 1 from pg_roles where rolname = $1', [ANALYST_ROLE]);
  if (role.rowCount === 0) {
    throw new Error(
      `the read-only role ${ANALYST_ROLE} does not exist: the database user could not create it (see the migration's notice); create it as a superuser and run the migrations again`,
    );
  }
  const password = analystPassword(dataDir);
  const { rows } = await pool.query<{ statement: string }>(
    `select format('alter role %I login password %L', $1::text, $2::text) as statement`,
    [ANALYST_ROLE, password],
  );
  await pool.query(rows[0].statement);
  const url = new URL(databaseUrl);
  url.username = ANALYST_ROLE;
  url.password = password;
  url.search = '';
  return url.toString();
}

function analystPassword(dataDir: string): string {
  const file = path.resolve(dataDir, ANALYST_PASSWORD_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** What `npm run ops -- sql` prints. */
export function analystInstructions(url: string): string {
  return [
    `Read-only SQL access (role ${ANALYST_ROLE}: SELECT on the read models, the analyst views and the event log; every transaction is read-only):`,
    '',
    `  ${url}`,
    '',
    `  psql '${url}'`,
    '',
    'Views: analyst.daily_volume, analyst.settlement_vs_ledger, analyst.open_exceptions, analyst.refund_return_ratios (docs/analysts.md).',
    '',
  ].join('\n');
}
