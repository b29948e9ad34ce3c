import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Pool } from 'pg';

/**
 * The role analysts connect as: it can read every read model, the analysts' views and the event
 * log, and change nothing.
 */
export const READ_ONLY_ROLE = 'payments_readonly';

/**
 * The statements that make (or refresh) the read-only role. Its transactions are read only by
 * default, and `alter default privileges` covers the tables migrations and rebuilds create later
 * (a rebuild swaps in fresh tables), so the grant never goes stale.
 */
export function readOnlyRoleSql(password: string): string[] {
  return [
    `do $$ begin
       if not exists (select from pg_roles where rolname = '${READ_ONLY_ROLE}') then
         create role ${READ_ONLY_ROLE} login password '${password}';
       else
         alter role ${READ_ONLY_ROLE} login password '${password}';
       end if;
     end $$`,
    `alter role ${READ_ONLY_ROLE} set default_transaction_read_only = on`,
    // An analyst's runaway query stops instead of holding the service's database.
    `alter role ${READ_ONLY_ROLE} set statement_timeout = '5min'`,
    `grant connect on database "__DATABASE__" to ${READ_ONLY_ROLE}`,
    `grant usage on schema public to ${READ_ONLY_ROLE}`,
    `grant select on all tables in schema public to ${READ_ONLY_ROLE}`,
    `alter default privileges grant select on tables to ${READ_ONLY_ROLE}`,
    // The event log, and the analysts' views (schema analyst, docs/analysts.md).
    ...['event_store', 'analyst'].map(
      (schema) => `do $$ begin
       if exists (select from pg_namespace where nspname = '${schema}') then
         execute 'grant usage on schema ${schema} to ${READ_ONLY_ROLE}';
         execute 'grant select on all tables in schema ${schema} to ${READ_ONLY_ROLE}';
       end if;
     end $$`,
    ),
  ];
}

/** The role's password: made once, kept beside the data (owner-only), so every `ops sql` agrees. */
export function readOnlyPassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // Letters and digits only: it sits inside SQL string literals and URLs.
  const password =
    randomBytes(24)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, '') || 'readonly';
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Creates or refreshes the role; answers the connection URL an analyst uses. */
export async function ensureReadOnlyRole(pool: Pool, adminUrl: string, password: string): Promise<string> {
  const { rows } = await pool.query<{ db: string }>('select current_database() as db');
  const database = rows[0].db;
  for (const statement of readOnlyRoleSql(password)) {
    await pool.query(statement.replace('__DATABASE__', database.replace(/"/g, '""')));
  }
  const url = new URL(adminUrl);
  url.username = READ_ONLY_ROLE;
  url.password = password;
  return url.toString();
}
