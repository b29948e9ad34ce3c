import type { AggregateSpec } from './aggregate';
import { foldEvents } from './aggregate';
import type { EventStore, RecordedEvent } from './event-store';
import type { DomainEvent } from './handle-command';

/** What reading an aggregate needs of its {@link AggregateSpec}. */
export type AggregateReadSpec<S> = Pick<
  AggregateSpec<{ at: Date }, S, DomainEvent>,
  'stream' | 'evolver' | 'notFound'
>;

/**
 * One aggregate read straight from its stream (strongly consistent, unlike the lists), through
 * the stream, evolver and not-found error its context already names in its `AggregateSpec`. A
 * context's reader extends it with the reads of its own.
 */
export class AggregateReader<S extends { partnerId: string }> {
  constructor(
    protected readonly store: EventStore,
    private readonly spec: AggregateReadSpec<S>,
  ) {}

  /** The aggregate's events, oldest first (empty for one that does not exist). */
  history(id: string): Promise<RecordedEvent[]> {
    return this.store.readStream(this.spec.stream(id));
  }

  /** The aggregate as its events make it; null when its stream is empty. */
  async find(id: string): Promise<S | null> {
    return foldEvents(this.spec.evolver, await this.history(id));
  }

  /** The aggregate, or its not-found error (404). */
  async get(id: string): Promise<S> {
    const found = await this.find(id);
    if (!found) throw this.spec.notFound(id);
    return found;
  }

  /** The aggregate if it is this partner's; another partner's reads exactly like a missing one. */
  async getForPartner(id: string, partnerId: string): Promise<S> {
    return this.ownedBy(await this.find(id), id, partnerId);
  }

  /** `found` if it is this partner's; otherwise the not-found error (for reads that find it another way). */
  protected ownedBy(found: S | null, id: string, partnerId: string): S {
    if (!found || found.partnerId !== partnerId) throw this.spec.notFound(id);
    return found;
  }
}
