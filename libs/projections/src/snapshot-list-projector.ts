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

  /** One event: a page of one. */
  handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    return this.handleBatch(tx, [recorded]);
  }

  /**
   * A page of events in a few statements: the rows the page touches read at once, the events
   * folded in order in memory, each changed row written once. The fold goes on from exactly what a
   * row would hold after each event (the kept snapshot, through JSON), so a page gives the rows
   * event-by-event application gives; {@link applied} sees each event with the state it left.
   */
  async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
    const { table, streamPrefix } = this.spec;
    const idOf = (recorded: RecordedEvent) => recorded.stream.slice(streamPrefix.length);
    const ids = [...new Set(events.map(idOf))];
    const stored = (await tx.query(`select id, snapshot, created_position from ${table} where id = any($1)`, [
      ids,
    ])) as { id: string; snapshot: S; created_position: string }[];
    const rows = new Map<string, Folded<S>>(
      stored.map((row) => [
        row.id,
        { kept: row.snapshot, json: null, createdPosition: row.created_position, last: null },
      ]),
    );
    for (const recorded of events) {
      const id = idOf(recorded);
      const row = rows.get(id);
      const state = this.spec.evolve(row?.kept ?? null, { type: recorded.type, data: recorded.data });
      // An event that leaves no state writes nothing: the row stays as it was.
      if (state) {
        const json = JSON.stringify(this.spec.snapshot ? this.spec.snapshot(state) : state);
        rows.set(id, {
          kept: JSON.parse(json) as S,
          json,
          createdPosition: row?.createdPosition ?? recorded.globalPosition.toString(),
          last: state,
        });
      }
      await this.applied(tx, recorded, state);
    }
    const changed = [...rows].filter(([, row]) => row.last !== null);
    if (changed.length === 0) return;
    const values = changed.map(([id, row]) => ({
      id,
      ...this.spec.columns(row.last!),
      created_position: row.createdPosition,
      snapshot: row.json,
    }));
    const names = Object.keys(values[0]);
    const updated = names.filter((n) => n !== 'id' && n !== 'created_position');
    const params: unknown[] = [];
    const tuples = values.map((value) => {
      const row = value as Record<string, unknown>;
      return `(${names.map((name) => (params.push(row[name]), `$${params.length}`)).join(', ')})`;
    });
    await tx.query(
      `insert into ${table} (${names.join(', ')}) values ${tuples.join(', ')}
       on conflict (id) do update set ${updated.map((n) => `${n} = excluded.${n}`).join(', ')}`,
      params,
    );
  }

  /**
   * For a read model that keeps more than its row (a table of its own written from the same
   * events): called for each event in order, with the state it left (null: none).
   */
  protected async applied(_tx: EntityManager, _recorded: RecordedEvent, _state: S | null): Promise<void> {}
}

/** A row as a page's fold has it: what it keeps, its first position, and its last new state. */
interface Folded<S> {
  kept: S;
  /** `kept` as the row's `snapshot` column holds it, once this page changed it. */
  json: string | null;
  createdPosition: string;
  /** The state the page's last event for this row left (its columns are written), null if none. */
  last: S | null;
}
