import type { DataSource, EntityManager } from 'typeorm';

/**
 * The SQL of `projection_checkpoints`. Raw queries with unqualified names on purpose: they run
 * inside rebuild transactions whose `search_path` starts with the shadow schema, where the
 * checkpoint table does not exist, so they still resolve to the live one. int8 arrives as a
 * string and leaves as one; positions are bigints in between, never numbers.
 */
export interface StoredCheckpoint {
  position: bigint;
  failed: boolean;
  lastError: string | null;
  errorPosition: bigint | null;
}

interface CheckpointRow {
  name: string;
  position: string;
  status: string;
  last_error: string | null;
  error_position: string | null;
}

/**
 * Creates the row on first start and clears an earlier failure: a restart retries the poison
 * event (it is never skipped), and fails again, visibly, if nothing was fixed.
 */
export async function openCheckpoint(db: DataSource, name: string): Promise<bigint> {
  const [row] = await db.query(
    `insert into projection_checkpoints (name, position, status, updated_at) values ($1, 0, 'running', now())
     on conflict (name) do update
       set status = 'running', last_error = null, error_position = null, updated_at = now()
     returning position`,
    [name],
  );
  return BigInt(row.position);
}

/**
 * Locks the row for the rest of the transaction, so two writers of one projector (two processes,
 * or a loop and a rebuild's swap) take turns. Null when the projector has never been started.
 */
export async function lockCheckpoint(tx: EntityManager, name: string): Promise<bigint | null> {
  const [row] = await tx.query(`select position from projection_checkpoints where name = $1 for update`, [
    name,
  ]);
  return row ? BigInt(row.position) : null;
}

export async function saveCheckpoint(tx: EntityManager, name: string, position: bigint): Promise<void> {
  await tx.query(`update projection_checkpoints set position = $2, updated_at = now() where name = $1`, [
    name,
    position.toString(),
  ]);
}

/** After a rebuild: the new tables' position, and whatever failure there was is history. */
export async function resetCheckpoint(tx: EntityManager, name: string, position: bigint): Promise<void> {
  await tx.query(
    `insert into projection_checkpoints (name, position, status, updated_at) values ($1, $2, 'running', now())
     on conflict (name) do update
       set position = $2, status = 'running', last_error = null, error_position = null, updated_at = now()`,
    [name, position.toString()],
  );
}

export async function recordFailure(
  db: DataSource,
  name: string,
  message: string,
  position: bigint | null,
): Promise<void> {
  await db.query(
    `update projection_checkpoints
        set status = 'failed', last_error = $2, error_position = $3, updated_at = now()
      where name = $1`,
    [name, message, position?.toString() ?? null],
  );
}

export async function readCheckpoints(db: DataSource): Promise<Map<string, StoredCheckpoint>> {
  const rows: CheckpointRow[] = await db.query(
    `select name, position, status, last_error, error_position from projection_checkpoints`,
  );
  return new Map(
    rows.map((row) => [
      row.name,
      {
        position: BigInt(row.position),
        failed: row.status === 'failed',
        lastError: row.last_error,
        errorPosition: row.error_position === null ? null : BigInt(row.error_position),
      },
    ]),
  );
}
