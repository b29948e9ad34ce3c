import { Client } from 'pg';
import type { Logger } from 'pino';

export type DatabaseState = 'up' | 'down';

export interface DatabaseMonitorOptions {
  connectionString: string;
  /** Between probes, whether the database is up or down (ms); default 1000. */
  intervalMs?: number;
  /** A probe slower than this counts as a failure (ms); default 2000. */
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * Knows whether the database answers, so that the service can say so instead of failing request
 * by request: `GET /health` reports it, and while it is down every request is refused with 503 at
 * once rather than after a connect attempt. One connection of its own runs `select 1` every
 * second: the pools' connections may all be busy under load, and a busy pool is not a dead
 * database. An embedded server that exits is reported at once (`markDown`), not at the next probe.
 */
export class DatabaseMonitor {
  private current: DatabaseState = 'up';
  private reasonText: string | null = null;
  private downSince = 0;
  private client: { pg: Client; ready: Promise<unknown> } | null = null;
  private inFlight: Promise<DatabaseState> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: DatabaseMonitorOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  get state(): DatabaseState {
    return this.current;
  }

  /** Why the database is down (the last probe's error), or null while it is up. */
  get reason(): string | null {
    return this.reasonText;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    const tick = (): void => {
      this.timer = setTimeout(() => {
        void this.probe().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.intervalMs);
      this.timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight?.catch(() => undefined);
    this.drop();
  }

  /** The database is known to be gone (the embedded server exited): no need to wait for a probe. */
  markDown(reason: string): void {
    this.transition('down', reason);
  }

  /** Asks the database now; concurrent callers share one probe. */
  probe(): Promise<DatabaseState> {
    this.inFlight ??= this.ask().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async ask(): Promise<DatabaseState> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const client = this.client ?? this.connect();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      // A connect that failed rejects the same promise here; its client is dropped below.
      await Promise.race([client.ready, timeout]);
      await Promise.race([client.pg.query('select 1'), timeout]);
      this.transition('up', null);
    } catch (error) {
      this.drop();
      this.transition('down', describe(error));
    } finally {
      clearTimeout(timer);
    }
    return this.current;
  }

  private connect(): { pg: Client; ready: Promise<unknown> } {
    const pg = new Client({
      connectionString: this.options.connectionString,
      application_name: 'partner-payments:health',
      connectionTimeoutMillis: this.timeoutMs,
    });
    // A broken connection is noticed by the next probe; the event must not go unhandled.
    pg.on('error', () => undefined);
    const ready = pg.connect();
    ready.catch(() => undefined);
    const client = { pg, ready };
    this.client = client;
    return client;
  }

  private drop(): void {
    const client = this.client;
    this.client = null;
    client?.pg.end().catch(() => undefined);
  }

  private transition(state: DatabaseState, reason: string | null): void {
    const { logger } = this.options;
    if (state === 'down') this.reasonText = reason;
    if (state === this.current) return;
    this.current = state;
    if (state === 'down') {
      this.downSince = performance.now();
      logger?.error({ reason }, 'database unreachable: every request answers 503 until it is back');
    } else {
      this.reasonText = null;
      logger?.info(
        { down_ms: Math.round(performance.now() - this.downSince) },
        'database reachable again: serving requests',
      );
    }
  }
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}
