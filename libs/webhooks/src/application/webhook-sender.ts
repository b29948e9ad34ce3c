import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { Pool, buildConnector, type Dispatcher } from 'undici';
import type { AppEnv as Environment } from '../../../platform/src/config/config';
// The domain's files, not its index: the sending thread (sender-thread.ts) loads this file and
// needs nothing more of the domain.
import { RESPONSE_BODY_LIMIT_BYTES, type AttemptError, type AttemptOutcome } from '../domain/delivery-rules';
import { deliveryAddressError } from '../domain/delivery-address';

/** Resolves a host name to its addresses (A and AAAA), or throws. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<string[]>;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  environment: Environment;
  timeoutMs: number;
  /** Aborts the attempt without an outcome (the worker is stopping). */
  signal?: AbortSignal;
}

export interface SendResult {
  /** null: aborted by `signal`, nothing to record. */
  outcome: AttemptOutcome | null;
  durationMs: number;
  /** A short reason for a failure without an answer (`error` of the attempt). */
  detail: string | null;
}

/** Makes one attempt's HTTP exchange: {@link WebhookSender} here, or on a thread of its own. */
export interface AttemptSender {
  send(request: SendRequest): Promise<SendResult>;
  /** Closes its connections; attempts still in flight end without an outcome. */
  close(): void;
}

const USER_AGENT = 'PartnerPayments-Webhooks/1';
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

class NoAnswer extends Error {
  constructor(
    readonly error: AttemptError,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Names resolve through DNS only (c-ares, never the thread pool), A and AAAA together; a name
 * with no address is a DNS failure. `localhost` never asks DNS (RFC 6761).
 */
export const resolveWithDns: Resolver = async (hostname, signal) => {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  const cancel = () => resolver.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value : []),
      ...(v6.status === 'fulfilled' ? v6.value : []),
    ];
    if (addresses.length === 0) {
      const reason = v4.status === 'rejected' ? (v4.reason as NodeJS.ErrnoException).code : 'no address';
      throw new NoAnswer('dns_failure', `${hostname} did not resolve (${reason})`);
    }
    return addresses;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
};

/** Most (origin, checked address) connection pools kept; the least recently used one is closed. */
const MAX_POOLS = 1000;
/** Connections per (origin, address), as many as the worker has attempts in flight. */
const CONNECTIONS_PER_ORIGIN = 64;
const KEEP_ALIVE_MS = 30_000;

/**
 * One webhook attempt over HTTP(S), safe against hostile receivers (docs/webhooks.md):
 * - the host is resolved at every attempt, every address checked against the URL rules, and the
 *   request sent on a connection to the checked address (connections are pooled per origin and
 *   address, so DNS cannot swap in another one, and a reused socket was checked when opened);
 * - redirects are never followed (a 3xx is an answer like any other);
 * - one deadline (`timeoutMs`) covers resolving, connecting, sending and the status line; after
 *   the status, the body is read until it ends, the deadline passes, or 64 KiB were read, then
 *   the connection is closed: the answer is the status code, the body is never used.
 *
 * The HTTP client is undici's: it costs the event loop about half of what node:http does per
 * attempt (docs/adr/0006-webhook-delivery.md), and the event loop is what the write path and
 * delivery share.
 */
export class WebhookSender implements AttemptSender {
  private readonly pools = new Map<string, Pool>();
  private readonly connector = buildConnector({});

  constructor(private readonly resolve: Resolver = resolveWithDns) {}

  close(): void {
    for (const pool of this.pools.values()) void pool.destroy().catch(() => undefined);
    this.pools.clear();
  }

  async send(request: SendRequest): Promise<SendResult> {
    const started = performance.now();
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, request.timeoutMs);
    const stop = () => deadline.abort();
    request.signal?.addEventListener('abort', stop, { once: true });
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await this.exchange(request, deadline.signal);
      const outcome: AttemptOutcome = {
        kind: 'answer',
        statusCode: response.statusCode,
        retryAfter: single(response.headers['retry-after']),
      };
      await drain(response.body, deadline.signal);
      return { outcome, durationMs: elapsed(), detail: null };
    } catch (error) {
      if (!timedOut && request.signal?.aborted) return { outcome: null, durationMs: elapsed(), detail: null };
      const failure = timedOut
        ? new NoAnswer('timeout', `no answer within ${request.timeoutMs} ms`)
        : asNoAnswer(error);
      return {
        outcome: { kind: 'no_answer', error: failure.error },
        durationMs: elapsed(),
        detail: failure.message.slice(0, 300),
      };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
    }
  }

  private async exchange(request: SendRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const url = new URL(request.url);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const address = await this.checkedAddress(host, request.environment, signal);
    return this.poolFor(url.origin, address).request({
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      signal,
      headers: { ...request.headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: request.body,
    });
  }

  /**
   * The pool of connections to `origin` opened to `address` only (the Host header and TLS name
   * stay the origin's): whatever DNS answers later, these sockets go where the check allowed.
   */
  private poolFor(origin: string, address: string): Pool {
    const key = `${origin} ${address}`;
    const known = this.pools.get(key);
    if (known) {
      // Most recently used last: the first entry is the one to close when there are too many.
      this.pools.delete(key);
      this.pools.set(key, known);
      return known;
    }
    const pool = new Pool(origin, {
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      connect: (options, callback) => this.connector({ ...options, hostname: address }, callback),
    });
    this.pools.set(key, pool);
    if (this.pools.size > MAX_POOLS) {
      const [oldest, evicted] = this.pools.entries().next().value as [string, Pool];
      this.pools.delete(oldest);
      void evicted.close().catch(() => undefined); // its requests in flight finish first
    }
    return pool;
  }

  /** The address to connect to, after every address the host resolves to passed the URL rules. */
  private async checkedAddress(host: string, environment: Environment, signal: AbortSignal): Promise<string> {
    const name = host.toLowerCase().replace(/\.$/, '');
    const addresses = isIP(host)
      ? [host]
      : name === 'localhost' || name.endsWith('.localhost')
        ? ['127.0.0.1']
        : await this.resolve(host, signal);
    // One refused address refuses the name: an answer mixing public and private addresses is the
    // shape of a rebinding attempt, and the socket must never be left to pick among them.
    for (const address of addresses) {
      const refused = deliveryAddressError(address, environment);
      if (refused) throw new NoAnswer('address_not_allowed', `${host} resolves to ${refused}`);
    }
    return addresses[0];
  }
}

function single(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** Reads and drops the body until it ends, the deadline, or the size limit; then the socket goes if unfinished. */
function drain(response: Readable, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      signal.removeEventListener('abort', cut);
      resolve();
    };
    const cut = () => {
      response.destroy();
      done();
    };
    if (signal.aborted) return cut();
    signal.addEventListener('abort', cut, { once: true });
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > RESPONSE_BODY_LIMIT_BYTES) cut();
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

function asNoAnswer(error: unknown): NoAnswer {
  if (error instanceof NoAnswer) return error;
  const code = (error as NodeJS.ErrnoException)?.code ?? '';
  const message = (error as Error)?.message ?? String(error);
  if (code === 'ECONNREFUSED') return new NoAnswer('connection_refused', message);
  // UND_ERR_SOCKET: undici's "other side closed" and the like, after the connection was made.
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'UND_ERR_SOCKET') {
    return new NoAnswer('connection_reset', message);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code.startsWith('ESERV') || code === 'ENODATA') {
    return new NoAnswer('dns_failure', message);
  }
  if (TLS_CODES.test(code)) return new NoAnswer('tls_error', message);
  return new NoAnswer('network_error', code ? `${code}: ${message}` : message);
}
