import { Client } from 'pg';

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** How the listener shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'partner-payments:projections-listen';

/**
 * One LISTEN connection on the PostgreSQL event store's NOTIFY channel. Notifications are hints,
 * not data: a lost one costs a poll interval. A connection that breaks is dropped, and the
 * workers are woken once so that they re-read and, before sleeping again, call `ensure()`, which
 * reconnects. A connection that cannot be opened wakes nobody: the workers poll until the
 * database is back instead of spinning on failed connects.
 */
export class AppendListener {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private established = false;
  /** Failed since it was last established: further failures of the same outage go unreported. */
  private failing = false;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    /** Called with the NOTIFY payload: the appended event types, or '' (unknown: wake all). */
    private readonly onAppend: (payload: string) => void,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    if (!CHANNEL.test(channel)) throw new Error(`invalid NOTIFY channel name: ${channel}`);
  }

  ensure(): void {
    if (this.closed || this.connecting) return;
    const client = new Client({
      connectionString: this.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client.on('notification', (message) => this.onAppend(message.payload ?? ''));
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client));
    this.client = client;
    this.connecting = (async () => {
      await client.connect();
      await client.query(`listen ${this.channel}`);
      if (this.closed) return this.drop(client);
      this.established = true;
      this.failing = false;
      // Appends that committed before LISTEN took effect notified nobody.
      this.onAppend('');
    })().catch((error: unknown) => this.drop(client, error));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    this.drop(this.client);
  }

  private drop(client: Client | null, error?: unknown): void {
    if (!client || client !== this.client) return;
    const lost = this.established;
    this.client = null;
    this.connecting = null;
    this.established = false;
    if (error !== undefined && !this.closed && !this.failing) {
      this.failing = true;
      this.onError(error);
    }
    if (lost && !this.closed) this.onAppend('');
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
  }
}
