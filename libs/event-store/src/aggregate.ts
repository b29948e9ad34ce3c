import type { Clock } from '../../platform/src/clock/clock';
import type { EventMetadata, EventStore, RecordedEvent } from './event-store';
import { handleCommand, type DomainEvent, type Evolver } from './handle-command';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A command as callers give it: the aggregate stamps `at` from the clock when it runs. */
export type CommandInput<C> = DistributiveOmit<C, 'at'>;

/**
 * Everything the command path needs to know about one aggregate, as data. Each context writes
 * one of these (`merchantAggregate`, `transactionAggregate`, ...); the code that reads, decides,
 * appends and retries is written once, here and in `handleCommand`.
 */
export interface AggregateSpec<C extends { at: Date }, S, E extends DomainEvent> {
  /** The stream an aggregate lives on: `merchantStream(id)` = `merchant-{id}`. */
  stream(id: string): string;
  /** Which aggregate a command addresses. */
  idOf(command: CommandInput<C>): string;
  evolver: Evolver<S | null, E>;
  decide(command: C, state: S | null): E[];
  /** Thrown when a command leaves no aggregate behind (it addressed one that does not exist). */
  notFound(id: string): Error;
  /** Read models a write waits for before it answers, so lists answer it at once. */
  readModels?: readonly string[];
}

export interface AggregateResult<S, E extends DomainEvent> {
  /** The aggregate after the command. */
  state: S;
  /** The events of this command (or of its earlier run, when `alreadyApplied`). */
  events: E[];
  /** The stream's revision after the command. */
  revision: bigint;
  /** Global position of the command's last event, for read-your-writes; null when none. */
  position: bigint | null;
  /** An earlier run of the same request appended the events; nothing new was written. */
  alreadyApplied: boolean;
}

export interface RunOptions<S> {
  /** The stream as the caller already knows it (see `HandleCommandOptions.known`). */
  known?: { state: S | null; revision: bigint };
  /** The request's last write: its answer may commit with it (see `HandleCommandOptions.final`). */
  final?: boolean;
  /** Reads and decides again this many times at most on a lost race (default 3; see `handleCommand`). */
  maxAttempts?: number;
}

/** Waits until the named read models have applied the global position (bounded by the runner). */
export type ReadModelWait = (position: bigint, readModels: readonly string[]) => Promise<void>;

/** The read-model wait a deployment provides (the projection runner's `waitFor`). */
export const READ_MODEL_WAIT = Symbol('ReadModelWait');

/** An aggregate's command path and its stream reads, bound to a store and a clock. */
export class Aggregate<C extends { at: Date }, S, E extends DomainEvent> {
  constructor(
    private readonly spec: AggregateSpec<C, S, E>,
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly waitFor: ReadModelWait = async () => undefined,
  ) {}

  /** Reads, decides, appends with the expected revision (retried on a race), then waits for the read models. */
  async run(
    command: CommandInput<C>,
    metadata: EventMetadata,
    options: RunOptions<S> = {},
  ): Promise<AggregateResult<S, E>> {
    const at = this.clock.now();
    const id = this.spec.idOf(command);
    const result = await handleCommand<S | null, E>(
      this.store,
      this.spec.stream(id),
      this.spec.evolver,
      (state) => this.spec.decide({ ...command, at } as unknown as C, state),
      metadata,
      { known: options.known, final: options.final, maxAttempts: options.maxAttempts },
    );
    if (!result.state) throw this.spec.notFound(id);
    if (result.position !== null && this.spec.readModels?.length) {
      await this.waitFor(result.position, this.spec.readModels);
    }
    return { ...result, state: result.state };
  }

  /** The aggregate's events, oldest first (empty for one that does not exist). */
  history(id: string): Promise<RecordedEvent[]> {
    return this.store.readStream(this.spec.stream(id));
  }

  /** The aggregate as its events make it; null when its stream is empty. */
  async find(id: string): Promise<S | null> {
    return foldEvents(this.spec.evolver, await this.history(id));
  }
}

/** `evolve` folded over recorded events. */
export function foldEvents<S, E extends DomainEvent>(
  evolver: Evolver<S, E>,
  events: readonly RecordedEvent[],
): S {
  return events.reduce(
    (state, e) => evolver.evolve(state, { type: e.type, data: e.data } as E),
    evolver.initialState(),
  );
}
