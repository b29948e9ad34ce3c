import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../event-store/src';

/**
 * A read model's builder. The runner calls `handle` for each event of `eventTypes`, inside the
 * transaction that also advances the projector's checkpoint, so rows and checkpoint move
 * together; events of other types only move the checkpoint.
 *
 * Handlers use unqualified table names (entities without a `schema`): a rebuild points
 * `search_path` at fresh tables of the same names and later swaps them in. A handler must not
 * commit, open its own connection, or call anything outside the database: it may run again for
 * the same event after a crash (its transaction then rolled back) and from the first event on a
 * rebuild.
 */
export interface Projector {
  readonly name: string;
  readonly eventTypes: readonly string[];
  /** The read-model tables this projector owns (rebuilt and swapped together), in `public`. */
  readonly tables: readonly string[];
  handle(tx: EntityManager, event: RecordedEvent): Promise<void>;
  /**
   * Optional set-based form: applies several events (in order) with a few statements instead of
   * one round trip per event, for read models that must catch up fast. When present the runner
   * uses it; if a batch fails, it re-applies the events one by one to find the poison event.
   */
  handleBatch?(tx: EntityManager, events: RecordedEvent[]): Promise<void>;
  /**
   * Optional: the transaction `tx` of a live batch committed (never called for one that rolled
   * back, nor during a rebuild). For handing what the batch made in memory to this process (the
   * `webhooks` projector's fresh deliveries); must not throw.
   */
  afterCommit?(tx: EntityManager): void;
}
