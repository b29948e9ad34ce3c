import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The JSON body (the envelope). */
  envelope: { id: string; type: string; [field: string]: unknown };
  /** Wall-clock time of arrival (ms). */
  at: number;
}

/** How a receiver answers one request; `respond` may also write the answer itself. */
export type Behaviour = (received: Received, res: ServerResponse) => void | Promise<void>;

export const answer =
  (status: number, headers: Record<string, string> = {}, body = ''): Behaviour =>
  (_received, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/**
 * A real HTTP receiver on a loopback port: records every request (headers, raw body) and answers
 * as its current behaviour says. Tests switch the behaviour between deliveries.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = answer(200);
  private server!: Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  static async start(behaviour?: Behaviour): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    if (behaviour) receiver.behaviour = behaviour;
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let envelope: Received['envelope'];
        try {
          envelope = JSON.parse(body) as Received['envelope'];
        } catch {
          envelope = { id: '', type: '' };
        }
        const received = { headers: req.headers, body, envelope, at: Date.now() };
        receiver.received.push(received);
        void Promise.resolve(receiver.behaviour(received, res)).catch(() => res.destroy());
      });
    });
    receiver.server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', () => resolve()));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests for one envelope id. */
  of(envelopeId: string): Received[] {
    return this.received.filter((r) => r.envelope.id === envelopeId);
  }

  /** Waits (real time) until `check` holds over what was received; throws after `timeoutMs`. */
  async waitFor(check: (received: Received[]) => boolean, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.received)) {
      if (Date.now() > deadline) {
        throw new Error(
          `receiver timed out; got ${this.received.length}: ${this.received.map((r) => r.envelope.type).join(', ')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Polls `read` until `check` accepts its value (real time), for state that settles asynchronously.
 * Every 100 ms: a partner's requests count against its rate limit (600 a minute).
 */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
