import type { ExpectedRevision } from './event-store';

/** The stream was not at the revision the appender expected. Every adapter throws this. */
export class WrongExpectedRevision extends Error {
  readonly code = 'concurrency_conflict';

  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, -1n when it does not exist, undefined when unknown. */
    readonly actual: bigint | undefined,
  ) {
    super(
      `stream ${stream}: expected revision ${String(expected)}, actual ${actual === undefined ? 'unknown' : String(actual)}`,
    );
    this.name = 'WrongExpectedRevision';
  }
}

/** An append that breaks the port's rules (for example zero events, or a duplicate event id). */
export class InvalidAppend extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppend';
  }
}
