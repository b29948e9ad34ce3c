/**
 * A webhook receiver on a worker thread, so that receiving costs the measured service's event loop
 * nothing: a node:http server on a loopback port that answers every request 204 at once and
 * notes each `webhook-id` with its wall-clock arrival time (ms). The bench asks for what it got.
 *
 * Use {@link ReceiverThread}; the worker side is the bottom of this file.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

type Request = { kind: 'take' } | { kind: 'stop' };
type Reply =
  { kind: 'ready'; port: number } | { kind: 'taken'; received: [string, number][] } | { kind: 'stopped' };

export class ReceiverThread {
  private waiting: ((reply: Reply) => void) | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {
    worker.on('message', (reply: Reply) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(reply);
    });
  }

  /** On `port`, or a free one. */
  static async start(wanted = 0): Promise<ReceiverThread> {
    const worker = new Worker(path.join(__dirname, 'receiver-worker.js'), { workerData: { port: wanted } });
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', (reply: Reply) => (reply.kind === 'ready' ? resolve(reply.port) : reject()));
      worker.once('error', reject);
    });
    return new ReceiverThread(worker, port);
  }

  url(pathname: string): string {
    return `http://127.0.0.1:${this.port}${pathname}`;
  }

  /** What arrived since the last call: `[webhook-id, arrival ms]`, in arrival order. */
  async take(): Promise<[string, number][]> {
    const reply = await this.ask({ kind: 'take' });
    return reply.kind === 'taken' ? reply.received : [];
  }

  async stop(): Promise<void> {
    await this.ask({ kind: 'stop' });
    await this.worker.terminate();
  }

  private ask(request: Request): Promise<Reply> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.worker.postMessage(request);
    });
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  let received: [string, number][] = [];
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received.push([String(req.headers['webhook-id'] ?? ''), Date.now()]);
      res.writeHead(204);
      res.end();
    });
  });
  server.listen((workerData as { port: number }).port, '127.0.0.1', () =>
    port.postMessage({ kind: 'ready', port: (server.address() as AddressInfo).port }),
  );
  port.on('message', (request: Request) => {
    if (request.kind === 'take') {
      port.postMessage({ kind: 'taken', received });
      received = [];
    } else {
      server.closeAllConnections();
      server.close(() => port.postMessage({ kind: 'stopped' }));
    }
  });
}
