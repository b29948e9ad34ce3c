import { AsyncLocalStorage } from 'node:async_hooks';
import type { IdempotencyStore, RecordWrites, StoredResponse } from './idempotency-store';

/**
 * An append whose record insert found the key taken: a twin of this request (same key) wrote its
 * record first, so this run appended nothing and must answer as the record says (409 while the
 * twin runs, its answer once it is done, 422 for another body).
 */
export class IdempotencyRecordTaken extends Error {
  constructor() {
    super('the Idempotency-Key was taken by another request while this one ran');
    this.name = 'IdempotencyRecordTaken';
  }
}

/**
 * Builds a request's answer body from the state its last write leaves, exactly as its handler
 * will return it; null when that state has no answer to store (an error will be the answer).
 */
export type AnswerOf = (state: unknown) => unknown;

/** The record writes one append carries, and how it ended (`settle` is called once, either way). */
export interface RecordClaim {
  writes: RecordWrites;
  settle(appended: boolean): void;
}

const current = new AsyncLocalStorage<RequestRecord>();

/**
 * One idempotent request's record, as its writes see it (docs/adr/0008-write-path.md). The
 * interceptor runs the handler inside it; the command path asks it, before each append, what
 * the append must carry:
 *
 * - the record's insert, with the request's first append, when the record waits for it (a
 *   route that opted in, on a store that writes records in its appends' transactions): durable
 *   before anything else the request does, and in the same commit as its first events;
 * - the answer, with a write its use case marks final (nothing the request does comes after it),
 *   built by the route from the state that write leaves (`answerWith`): the answer then commits
 *   with the events it describes.
 *
 * Appends of one request that run at the same time take turns for the insert: only one carries
 * it, and the others wait until it is written (or failed, and then the next one carries it).
 */
export class RequestRecord {
  /** The record of the request running in this async context, if any. */
  static current(): RequestRecord | undefined {
    return current.getStore();
  }

  /** Runs `fn` (the handler) as part of this request. */
  run<T>(fn: () => T): T {
    return current.run(this, fn);
  }

  private carrying: Promise<void> | null = null;
  private answerOf: AnswerOf | null = null;
  /** The answer a final append stored with its events. */
  storedAnswer: StoredResponse | null = null;

  constructor(
    private readonly store: IdempotencyStore,
    readonly scope: string,
    readonly key: string,
    readonly commandId: string,
    readonly fingerprint: string,
    /** The lease the record is written under (its holder renews and gives it back with it). */
    readonly lease: string,
    /** Whether the record is in the database (false while it waits for the first append). */
    private inserted: boolean,
    /** The response a body makes on this route (its status and kept headers). */
    private readonly respond: (body: unknown) => StoredResponse,
  ) {}

  get written(): boolean {
    return this.inserted;
  }

  /**
   * The route's answer for a final write (ignored by a store that cannot join appends): the
   * interceptor stores the handler's own answer instead if it turns out different.
   */
  answerWith(answerOf: AnswerOf): void {
    this.answerOf = answerOf;
  }

  /**
   * What the next append must carry (null: nothing); `final` with the state the append leaves
   * when nothing of the request comes after it. Call `settle` once the append ended.
   */
  async claim(final?: { state: unknown }): Promise<RecordClaim | null> {
    while (this.carrying) await this.carrying.catch(() => undefined);
    const begin = !this.inserted && this.store.joinsAppends;
    const body = final && this.answerOf && this.store.joinsAppends ? this.answerOf(final.state) : null;
    const answer = body === null ? null : this.respond(body);
    if (!begin && !answer) return null;
    const row = this.store.beginWrite(this.scope, this.key, this.commandId, this.fingerprint, this.lease);
    const writes: RecordWrites = {
      ...row,
      begin: begin ? row.begin : null,
      answer: answer && this.store.answerWrite(this.scope, this.key, answer),
    };
    let done!: () => void;
    if (begin) this.carrying = new Promise<void>((resolve) => (done = resolve));
    return {
      writes,
      settle: (appended) => {
        if (appended) {
          this.inserted = true;
          if (answer) this.storedAnswer = answer;
        }
        if (begin) {
          this.carrying = null;
          done();
        }
      },
    };
  }
}
