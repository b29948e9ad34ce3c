/**
 * A webhook receiver off the measured service's event loop: a node:http server on a loopback port
 * that answers every request 204 at once and notes each `webhook-id` with its wall-clock arrival
 * time (ms). The bench asks for what it got.
 *
 * Two ways to run it, one server:
 * - {@link BenchReceiver.start}: on a worker thread of the bench process (the delivery throughput
 *   and latency rows, where the receiver's speed is part of what is measured);
 * - {@link BenchReceiver.startLowPriority}: in a child process at the lowest CPU priority
 *   (`nice -n 19`, every thread of it). The SALE-with-webhooks rows use it: they measure what
 *   delivering costs the platform's write path, and a partner's receiver runs on the partner's
 *   machines, not on the platform's two cores. At the same priority its CPU (a request parsed and
 *   answered per delivery, two per SALE) was charged to the SALEs; at the lowest it runs in the
 *   machine's idle time, and only waits longer for it when the platform needs every core.
 *
 * The worker/child side is the bottom of this file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

type Request = { kind: 'take' } | { kind: 'stop' };
type Reply =
  { kind: 'ready'; port: number } | { kind: 'taken'; received: [string, number][] } | { kind: 'stopped' };

/** The two channels the receiver can be driven over (a worker's port, a child's IPC). */
interface Channel {
  send(request: Request): void;
  onReply(listener: (reply: Reply) => void): void;
  end(): Promise<void>;
}

const SCRIPT = path.join(__dirname, 'receiver-worker.js');
const CHILD_FLAG = '--webhook-receiver-child';

export class BenchReceiver {
  private waiting: ((reply: Reply) => void) | null = null;

  private constructor(
    private readonly channel: Channel,
    readonly port: number,
  ) {
    channel.onReply((reply) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(reply);
    });
  }

  /** On a worker thread of this process; on `port`, or a free one. */
  static async start(wanted = 0): Promise<BenchReceiver> {
    const worker = new Worker(SCRIPT, { workerData: { port: wanted } });
    const channel: Channel = {
      send: (request) => worker.postMessage(request),
      onReply: (listener) => worker.on('message', listener),
      end: async () => void (await worker.terminate()),
    };
    return BenchReceiver.ready(channel, (fail) => worker.once('error', fail));
  }

  /** In a child process at the lowest CPU priority (see the top of the file); on a free port. */
  static async startLowPriority(): Promise<BenchReceiver> {
    // `nice` before node starts, so every thread node makes inherits the priority (on Linux a
    // nice value is per thread: lowering it from inside would leave V8's own threads behind).
    const child: ChildProcess = spawn('nice', ['-n', '19', process.execPath, SCRIPT, CHILD_FLAG], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const channel: Channel = {
      send: (request) => child.send(request),
      onReply: (listener) => child.on('message', listener),
      end: () =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill();
        }),
    };
    return BenchReceiver.ready(channel, (fail) => {
      child.once('error', fail);
      child.once('exit', (code) =>
        fail(new Error(`the receiver process exited (${code}) before it listened`)),
      );
    });
  }

  private static ready(channel: Channel, onFailure: (fail: (error: Error) => void) => void) {
    return new Promise<BenchReceiver>((resolve, reject) => {
      let receiver: BenchReceiver | null = null;
      onFailure((error) => {
        if (!receiver) reject(error);
      });
      const first = (reply: Reply) => {
        if (receiver) return;
        if (reply.kind !== 'ready') return reject(new Error(`the receiver answered ${reply.kind} first`));
        receiver = new BenchReceiver(channel, reply.port);
        resolve(receiver);
      };
      channel.onReply(first);
    });
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
    await this.channel.end();
  }

  private ask(request: Request): Promise<Reply> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.channel.send(request);
    });
  }
}

/** The receiver itself, answering over whichever channel started it. */
function serve(
  wanted: number,
  reply: (message: Reply) => void,
  onRequest: (listener: (r: Request) => void) => void,
) {
  let received: [string, number][] = [];
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received.push([String(req.headers['webhook-id'] ?? ''), Date.now()]);
      res.writeHead(204);
      res.end();
    });
  });
  server.listen(wanted, '127.0.0.1', () =>
    reply({ kind: 'ready', port: (server.address() as AddressInfo).port }),
  );
  onRequest((request) => {
    if (request.kind === 'take') {
      reply({ kind: 'taken', received });
      received = [];
    } else {
      server.closeAllConnections();
      server.close(() => reply({ kind: 'stopped' }));
    }
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  serve(
    (workerData as { port: number }).port,
    (message) => port.postMessage(message),
    (listener) => port.on('message', listener),
  );
} else if (process.argv.includes(CHILD_FLAG) && process.send) {
  serve(
    0,
    (message) => process.send!(message),
    (listener) => process.on('message', listener),
  );
  // The bench's end (or its death) ends the receiver: no process left behind.
  process.on('disconnect', () => process.exit(0));
}
