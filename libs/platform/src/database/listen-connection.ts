import { Client, type Notification } from 'pg';

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** How the process's LISTEN connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'partner-payments:listen';

/** One subscriber of one channel on a {@link ListenConnection}. */
export interface ListenHandlers {
  /** A NOTIFY on the channel, with its payload; '' also means "something may have changed: look". */
  notify(payload: string): void;
  /** The connection failed; said once per outage, not once per reconnect attempt. */
  error?(error: unknown): void;
}

/** A subscription: `ensure()` (re)connects when needed, `close()` leaves. */
export interface Listening {
  ensure(): void;
  close(): Promise<void>;
}

/**
 * The process's one LISTEN connection per database: every channel any part of the process
 * listens on (the event store's appends for the projectors, the caches and live subscriptions;
 * the webhook deliveries for their worker) shares it, and its notifications fan out in the
 * process. Notifications are hints, not data: a lost one costs a subscriber its poll interval.
 *
 * A connection that breaks is dropped, and every subscriber is told '' once (so it looks again,
 * and calls `ensure()` before sleeping, which reconnects). A connection that cannot be opened
 * tells nobody: subscribers poll until the database is back instead of spinning on failed
 * connects. On (re)connect every channel is listened to again and its subscribers told '',
 * since whatever was notified before LISTEN took effect reached nobody.
 */
export class ListenConnection {
  private static readonly open = new Map<string, ListenConnection>();

  /** The process's connection to `connectionString`, shared by all its subscribers. */
  static subscribe(connectionString: string, channel: string, handlers: ListenHandlers): Listening {
    if (!CHANNEL.test(channel)) throw new Error(`invalid NOTIFY channel name: ${channel}`);
    let connection = ListenConnection.open.get(connectionString);
    if (!connection) {
      connection = new ListenConnection(connectionString);
      ListenConnection.open.set(connectionString, connection);
    }
    return connection.add(channel, handlers);
  }

  private readonly subscribers = new Map<string, Set<ListenHandlers>>();
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  /** Channels LISTENed on the current connection. */
  private readonly listened = new Set<string>();
  /** LISTEN statements run one after the other on the connection. */
  private queue: Promise<void> = Promise.resolve();
  private established = false;
  /** Failed since it was last established: further failures of the same outage go unreported. */
  private failing = false;

  private constructor(private readonly connectionString: string) {}

  private add(channel: string, handlers: ListenHandlers): Listening {
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(handlers);
    let closed = false;
    return {
      ensure: () => {
        if (!closed) this.ensure();
      },
      close: async () => {
        if (closed) return;
        closed = true;
        set.delete(handlers);
        if (set.size === 0) this.subscribers.delete(channel);
        if (this.subscribers.size > 0) return;
        ListenConnection.open.delete(this.connectionString);
        await this.connecting?.catch(() => undefined);
        this.drop(this.client);
      },
    };
  }

  private ensure(): void {
    if (this.subscribers.size === 0) return;
    if (!this.connecting) return this.connect();
    // Connected (or connecting): channels subscribed since then are listened to as well.
    if (this.established) for (const channel of this.subscribers.keys()) this.listen(channel);
  }

  private connect(): void {
    const client = new Client({
      connectionString: this.connectionString,
      application_name: LISTEN_APPLICATION_NAME,
    });
    client.on('notification', (message: Notification) =>
      this.deliver(message.channel, message.payload ?? ''),
    );
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client));
    this.client = client;
    this.listened.clear();
    this.queue = Promise.resolve();
    this.connecting = (async () => {
      await client.connect();
      for (const channel of this.subscribers.keys()) this.listen(channel);
      await this.queue;
      if (client !== this.client) return;
      this.established = true;
      this.failing = false;
    })().catch((error: unknown) => this.drop(client, error));
  }

  /** LISTEN once per channel per connection; its subscribers are then told '' (see the class). */
  private listen(channel: string): void {
    const client = this.client;
    if (!client || this.listened.has(channel)) return;
    this.listened.add(channel);
    this.queue = this.queue.then(async () => {
      if (client !== this.client) return;
      await client.query(`listen ${channel}`);
      if (client === this.client) this.deliver(channel, '');
    });
    this.queue.catch((error: unknown) => this.drop(client, error));
  }

  private deliver(channel: string, payload: string): void {
    for (const handlers of this.subscribers.get(channel) ?? []) handlers.notify(payload);
  }

  private drop(client: Client | null, error?: unknown): void {
    if (!client || client !== this.client) return;
    const lost = this.established;
    this.client = null;
    this.connecting = null;
    this.established = false;
    this.listened.clear();
    const everyone = [...this.subscribers.values()].flatMap((set) => [...set]);
    if (error !== undefined && this.subscribers.size > 0 && !this.failing) {
      this.failing = true;
      for (const handlers of everyone) handlers.error?.(error);
    }
    if (lost) for (const handlers of everyone) handlers.notify('');
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
  }
}
