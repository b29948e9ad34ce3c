import {
  LISTEN_APPLICATION_NAME,
  ListenConnection,
  type Listening,
} from '../../platform/src/database/listen-connection';

/** How the process's LISTEN connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = LISTEN_APPLICATION_NAME;

/**
 * A subscriber of the PostgreSQL event store's NOTIFY channel (or another one) on the process's
 * one LISTEN connection ({@link ListenConnection}). Notifications are hints, not data: a lost one
 * costs a poll interval. A connection that breaks wakes the subscriber once, so that its workers
 * re-read and, before sleeping again, call `ensure()`, which reconnects. A connection that cannot
 * be opened wakes nobody: the workers poll until the database is back instead of spinning on
 * failed connects.
 */
export class AppendListener {
  private readonly listening: Listening;

  constructor(
    connectionString: string,
    channel: string,
    /** Called with the NOTIFY payload: the appended event types, or '' (unknown: wake all). */
    onAppend: (payload: string) => void,
    onError: (error: unknown) => void = () => undefined,
  ) {
    this.listening = ListenConnection.subscribe(connectionString, channel, {
      notify: onAppend,
      error: onError,
    });
  }

  ensure(): void {
    this.listening.ensure();
  }

  close(): Promise<void> {
    return this.listening.close();
  }
}
