import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../event-store/src';
import type { Projector } from './projector';

/** What a one-row-per-aggregate read model needs to say; the rest is {@link SnapshotListProjector}. */
export interface SnapshotListSpec<S> {
  readonly name: string;
  /** Its table (unqualified, so a rebuild can point `search_path` at fresh tables). */
  readonly table: string;
  readonly eventTypes: readonly string[];
  /** The aggregate's stream prefix: the row's `id` is the stream name after it. */
  readonly streamPrefix: string;
  /** The aggregate's own `evolve`. */
  evolve(state: S | null, event: { type: string; data: unknown }): S | null;
  /** The row's columns by name, from the folded state (`id`, `created_position`, `snapshot` are added). */
  columns(state: S): Record<string, unknown>;
  /**
   * What the row keeps of the state as its snapshot (default: all of it), for a state with a part
   * kept in a table of its own. `evolve` must not need the part left out.
   */
  snapshot?(state: S): S;
}

/**
 * A read model with one row per aggregate, built by folding the aggregate's own `evolve` over a
 * JSON `snapshot` kept in the row, so the list can never disagree with a single read. The row's
 * `created_position` is the global position of the aggregate's first event (lists page newest
 * first on it) and never changes; every other column follows the latest state.
 */
export class SnapshotListProjector<S> implements Projector {
  readonly name: string;
  readonly eventTypes: readonly string[];
  readonly tables: readonly string[];

  constructor(private readonly spec: SnapshotListSpec<S>) {
    this.name = spec.name;
    this.eventTypes = spec.eventTypes;
    this.tables = [spec.table];
  }

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const { table } = this.spec;
    const id = recorded.stream.slice(this.spec.streamPrefix.length);
    const rows = (await tx.query(`select snapshot, created_position from ${table} where id = $1`, [id])) as {
      snapshot: S;
      created_position: string;
    }[];
    const state = this.spec.evolve(rows[0]?.snapshot ?? null, { type: recorded.type, data: recorded.data });
    if (!state) return;
    const row: Record<string, unknown> = {
      id,
      ...this.spec.columns(state),
      created_position: rows[0]?.created_position ?? recorded.globalPosition.toString(),
      snapshot: JSON.stringify(this.spec.snapshot ? this.spec.snapshot(state) : state),
    };
    const names = Object.keys(row);
    const updated = names.filter((n) => n !== 'id' && n !== 'created_position');
    await tx.query(
      `insert into ${table} (${names.join(', ')}) values (${names.map((_, i) => `$${i + 1}`).join(', ')})
       on conflict (id) do update set ${updated.map((n) => `${n} = excluded.${n}`).join(', ')}`,
      Object.values(row),
    );
  }
}
