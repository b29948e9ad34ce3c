import type { DataSource, EntityManager } from 'typeorm';

/**
 * The DDL of rebuild-and-swap. A rebuild fills copies of a projector's tables in a schema of its
 * own (`rebuild_<name>`) while readers keep using the live ones in `public`, then swaps them in
 * within one transaction. The copies get the live tables' columns, defaults, checks, constraints
 * and indexes under the same names, so later migrations that name an index still find it.
 */
export const LIVE_SCHEMA = 'public';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Identifiers are interpolated into DDL, so only plain lower-case names are accepted. */
export function assertIdentifier(name: string, what: string): void {
  if (!IDENTIFIER.test(name)) throw new Error(`invalid ${what} name for a rebuild: ${name}`);
}

export function shadowSchemaFor(projection: string): string {
  const schema = `rebuild_${projection.replace(/-/g, '_')}`;
  assertIdentifier(schema, 'schema');
  return schema;
}

const q = (name: string): string => `"${name}"`;
const live = (table: string): string => `${q(LIVE_SCHEMA)}.${q(table)}`;

/** (Re)creates the shadow schema with empty copies of `tables`; a leftover from a crash is dropped. */
export async function createShadowTables(
  db: DataSource,
  schema: string,
  tables: readonly string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`drop schema if exists ${q(schema)} cascade`);
    await tx.query(`create schema ${q(schema)}`);
    for (const table of tables) await copyTable(tx, schema, table);
  });
}

async function copyTable(tx: EntityManager, schema: string, table: string): Promise<void> {
  const copy = `${q(schema)}.${q(table)}`;
  // LIKE would rename indexes (`x_a_b_idx`); they are recreated below under their own names.
  await tx.query(`create table ${copy} (like ${live(table)} including all excluding indexes)`);
  const constraints: { name: string; definition: string }[] = await tx.query(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = $1::regclass and contype in ('p', 'u', 'x') order by conname`,
    [live(table)],
  );
  for (const c of constraints) {
    await tx.query(`alter table ${copy} add constraint ${q(c.name)} ${c.definition}`);
  }
  // pg_get_indexdef qualifies the table the way quote_ident does; only that part changes.
  const indexes: { definition: string }[] = await tx.query(
    `select replace(pg_get_indexdef(i.indexrelid),
                    ' ON ' || quote_ident($2) || '.' || quote_ident($3) || ' ',
                    ' ON ' || quote_ident($4) || '.' || quote_ident($3) || ' ') as definition
       from pg_index i
      where i.indrelid = $1::regclass
        and not exists (select 1 from pg_constraint c
                         where c.conrelid = i.indrelid and c.conindid = i.indexrelid
                           and c.contype in ('p', 'u', 'x'))`,
    [live(table), LIVE_SCHEMA, table, schema],
  );
  for (const index of indexes) await tx.query(index.definition);
}

/**
 * Inside the caller's transaction: drops the live tables and moves the copies into their place.
 * Serial columns' sequences belong to the live table and are shared by the copy's default, so
 * they are detached first and re-attached to the copy; dropping would otherwise fail. Views over
 * the live tables (the analysts' views, docs/analysts.md) are dropped and created again over the
 * new tables, and the grants on the tables and the views are given again, so readers see the
 * same objects with the same privileges after the swap.
 */
export async function swapInShadowTables(
  tx: EntityManager,
  schema: string,
  tables: readonly string[],
): Promise<void> {
  const [{ path }] = (await tx.query(`select current_setting('search_path') as path`)) as { path: string }[];
  // Nothing resolves unqualified while definitions are read and written: every name is schema-qualified.
  await tx.query('set local search_path to pg_catalog');
  const views = await dependentViews(tx, tables);
  const grants = await tableGrants(tx, tables.map(live));
  for (const view of [...views].reverse()) await tx.query(`drop view ${view.name}`);
  for (const table of tables) {
    const sequences = await ownedSequences(tx, table);
    for (const s of sequences) await tx.query(`alter sequence ${s.sequence} owned by none`);
    await tx.query(`drop table ${live(table)}`);
    await tx.query(`alter table ${q(schema)}.${q(table)} set schema ${q(LIVE_SCHEMA)}`);
    for (const s of sequences) {
      await tx.query(`alter sequence ${s.sequence} owned by ${live(table)}.${s.column}`);
    }
  }
  for (const view of views) await tx.query(`create view ${view.name} as ${view.definition}`);
  for (const grant of [...grants, ...views.flatMap((v) => v.grants)]) {
    await tx.query(`grant ${grant.privilege} on ${grant.relation} to ${grant.grantee}`);
  }
  await tx.query(`drop schema ${q(schema)} cascade`);
  await tx.query(`select set_config('search_path', $1, true)`, [path]);
}

interface Grant {
  relation: string;
  privilege: string;
  grantee: string;
}

/** The privileges others than the owner hold on `relations` (qualified names). */
async function tableGrants(tx: EntityManager, relations: readonly string[]): Promise<Grant[]> {
  if (relations.length === 0) return [];
  return tx.query(
    `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as relation, a.privilege_type as privilege,
            case when a.grantee = 0 then 'public' else quote_ident(pg_get_userbyid(a.grantee)) end as grantee
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       cross join lateral aclexplode(c.relacl) a
      where c.oid = any($1::regclass[]) and a.grantee <> c.relowner`,
    [relations],
  );
}

/**
 * The views that read the tables, directly or through other views, in an order they can be
 * created in (each after the views it reads), with their definitions and grants.
 */
async function dependentViews(
  tx: EntityManager,
  tables: readonly string[],
): Promise<{ name: string; definition: string; grants: Grant[] }[]> {
  const rows: { oid: string; name: string; definition: string }[] = await tx.query(
    `with recursive readers(oid, depth) as (
       select r.ev_class, 1
         from pg_depend d join pg_rewrite r on r.oid = d.objid
        where d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass
          and d.refobjid = any($1::regclass[]) and r.ev_class <> d.refobjid
       union
       select r.ev_class, readers.depth + 1
         from readers join pg_depend d on d.refobjid = readers.oid
         join pg_rewrite r on r.oid = d.objid
        where d.classid = 'pg_rewrite'::regclass and d.refclassid = 'pg_class'::regclass
          and r.ev_class <> d.refobjid
     )
     select c.oid::text as oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
            pg_get_viewdef(c.oid) as definition
       from (select oid, max(depth) as depth from readers group by oid) v
       join pg_class c on c.oid = v.oid and c.relkind = 'v'
       join pg_namespace n on n.oid = c.relnamespace
      order by v.depth, name`,
    [tables.map(live)],
  );
  const grants = await tableGrants(
    tx,
    rows.map((r) => r.name),
  );
  return rows.map((r) => ({
    name: r.name,
    definition: r.definition,
    grants: grants.filter((g) => g.relation === r.name),
  }));
}

async function ownedSequences(
  tx: EntityManager,
  table: string,
): Promise<{ sequence: string; column: string }[]> {
  return tx.query(
    `select quote_ident(n.nspname) || '.' || quote_ident(s.relname) as sequence, quote_ident(a.attname) as column
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
       join pg_namespace n on n.oid = s.relnamespace
       join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
        and d.refobjid = $1::regclass and d.deptype = 'a'`,
    [live(table)],
  );
}

export async function dropShadowSchema(db: DataSource, schema: string): Promise<void> {
  await db.query(`drop schema if exists ${q(schema)} cascade`);
}
