import type { Pool } from 'pg';
import type { PageRequest } from './pagination';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * One page of a read model that keeps each record as a JSON `snapshot` and orders by
 * `created_position` (newest first), plus the total under the same filters. `where` holds SQL
 * conditions over `$1..$n` of `params`; the page's own bounds are appended here.
 */
export async function listSnapshots<S>(
  pool: Pool,
  table: string,
  where: string[],
  params: unknown[],
  page: PageRequest,
): Promise<{ rows: { snapshot: S; position_key: string }[]; total: number }> {
  if (!IDENTIFIER.test(table)) throw new Error(`invalid read-model table name ${table}`);
  const filter = where.length ? where.join(' and ') : 'true';
  const pageParams = [...params];
  const pageWhere = [filter];
  if (page.after !== null) pageWhere.push(`created_position < $${pageParams.push(page.after)}`);
  const limit = `$${pageParams.push(page.pageSize + 1)}`;
  const [{ rows }, total] = await Promise.all([
    pool.query<{ snapshot: S; position_key: string }>(
      `select snapshot, created_position::text as position_key from ${table}
        where ${pageWhere.join(' and ')} order by ${table}.created_position desc limit ${limit}`,
      pageParams,
    ),
    pool.query<{ count: string }>(`select count(*)::text as count from ${table} where ${filter}`, params),
  ]);
  return { rows, total: Number(total.rows[0].count) };
}

/**
 * `where` and `params` for {@link listSnapshots}: the given conditions over `params`, then
 * `column = $n` for each filter given (one left out, `undefined` or `null`, narrows nothing).
 */
export function narrowedBy(
  where: string[],
  params: unknown[],
  equal: Record<string, unknown>,
): { where: string[]; params: unknown[] } {
  const conditions = [...where];
  const values = [...params];
  for (const [column, value] of Object.entries(equal)) {
    if (!IDENTIFIER.test(column)) throw new Error(`invalid read-model column name ${column}`);
    if (value !== undefined && value !== null) conditions.push(`${column} = $${values.push(value)}`);
  }
  return { where: conditions, params: values };
}
