import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { answer, WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { ThreadedWebhookSender } from './sender-thread';

/**
 * The sending thread against real local receivers: what an attempt gets back is what the
 * in-process sender gives (webhook-sender.spec.ts has every rule), carried across the thread;
 * here, what the thread adds — the round trip, the stop signal, a thread that dies.
 */
describe('ThreadedWebhookSender', () => {
  let hooks: WebhookReceiver;
  let sender: ThreadedWebhookSender;
  const request = (url: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) => ({
    url,
    headers: { 'webhook-id': 'msg-1', 'webhook-signature': 'v1,c2ln' },
    body: '{"ok":true}',
    environment: 'sandbox' as const,
    timeoutMs: extra.timeoutMs ?? 2000,
    signal: extra.signal,
  });

  beforeEach(async () => {
    hooks = await WebhookReceiver.start(answer(200));
    sender = new ThreadedWebhookSender();
  });
  afterEach(async () => {
    sender.close();
    await hooks.close();
  });

  it('sends the request as given and returns the answer, Retry-After included', async () => {
    hooks.behaviour = answer(429, { 'retry-after': '120' });
    const result = await sender.send(request(`http://127.0.0.1:${hooks.port}/in?x=1`));
    expect(result.outcome).toEqual({ kind: 'answer', statusCode: 429, retryAfter: '120' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0].body).toBe('{"ok":true}');
    expect(hooks.received[0].headers['webhook-id']).toBe('msg-1');
    expect(hooks.received[0].headers['webhook-signature']).toBe('v1,c2ln');
    expect(hooks.received[0].headers['content-type']).toBe('application/json');
  });

  it('runs the exchange off this thread: the request leaves while this thread is blocked', async () => {
    // A receiver on a thread of its own stamps arrivals; this thread then blocks its event loop.
    // An exchange on this thread could not write its request before the block ends.
    const receiver = new Worker(STAMPING_RECEIVER, { eval: true });
    try {
      const arrivals: number[] = [];
      const port = await new Promise<number>((resolve) =>
        receiver.on('message', (m: { port?: number; at?: number }) =>
          m.port ? resolve(m.port) : arrivals.push(m.at!),
        ),
      );
      // The first attempt starts the sending thread.
      expect((await sender.send(request(`http://127.0.0.1:${port}/in`))).outcome).toMatchObject({
        statusCode: 200,
      });
      const blockedAt = Date.now();
      const sent = sender.send(request(`http://127.0.0.1:${port}/in`));
      await Promise.resolve(); // the turn's messages are posted when its synchronous part ends
      while (Date.now() - blockedAt < 1000) {
        /* busy */
      }
      expect((await sent).outcome).toMatchObject({ kind: 'answer', statusCode: 200 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(arrivals).toHaveLength(2);
      expect(arrivals[1]).toBeLessThan(blockedAt + 900);
    } finally {
      await receiver.terminate();
    }
  });

  it('the sending thread runs at a lower priority than this one (Linux: nice is per thread)', async () => {
    if (process.platform !== 'linux') return;
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
      });
    const before = niceOfThreads();
    await sender.send(request(`http://127.0.0.1:${hooks.port}/in`));
    const started = niceOfThreads().filter((t) => !before.some((b) => b.tid === t.tid));
    expect(started.map((t) => t.nice)).toContain(10);
    expect(niceOfThreads().find((t) => t.tid === process.pid)?.nice).toBe(0);
    // libuv's pool threads (made before the sending thread) keep the process's priority.
    expect(niceOfThreads().filter((t) => t.nice === 10)).toHaveLength(1);
  });

  it('many attempts in flight at once each get their own answer', async () => {
    hooks.behaviour = (received, res) => {
      const status = Number(new URL(`http://x${received.headers['x-path'] ?? ''}`).searchParams.get('s'));
      res.writeHead(status);
      res.end();
    };
    const statuses = [200, 204, 400, 410, 500, 503, 202, 301];
    const results = await Promise.all(
      statuses.map((s) =>
        sender.send({
          ...request(`http://127.0.0.1:${hooks.port}/in`),
          headers: { 'webhook-id': `msg-${s}`, 'x-path': `/?s=${s}` },
        }),
      ),
    );
    expect(results.map((r) => (r.outcome?.kind === 'answer' ? r.outcome.statusCode : null))).toEqual(
      statuses,
    );
  });

  it('the stop signal cuts an attempt in flight short, without an outcome', async () => {
    hooks.behaviour = () => undefined; // never answers
    const stop = new AbortController();
    const sent = sender.send(
      request(`http://127.0.0.1:${hooks.port}/in`, { timeoutMs: 10_000, signal: stop.signal }),
    );
    await eventuallyReceived(hooks, 1);
    stop.abort();
    const result = await sent;
    expect(result.outcome).toBeNull();
    expect(result.durationMs).toBeLessThan(5000);
    // A signal already stopped sends nothing.
    expect(
      (await sender.send(request(`http://127.0.0.1:${hooks.port}/in`, { signal: stop.signal }))).outcome,
    ).toBeNull();
    expect(hooks.received).toHaveLength(1);
  });

  it('closed and used again in one turn: the attempt before ends without an outcome, the one after is sent', async () => {
    const before = sender.send(request(`http://127.0.0.1:${hooks.port}/in`));
    sender.close();
    const after = sender.send(request(`http://127.0.0.1:${hooks.port}/in`));
    expect((await before).outcome).toBeNull();
    expect((await after).outcome).toMatchObject({ kind: 'answer', statusCode: 200 });
    expect(hooks.received).toHaveLength(1);
  });

  it('the deadline still holds on the sending thread', async () => {
    hooks.behaviour = () => undefined;
    const result = await sender.send(request(`http://127.0.0.1:${hooks.port}/in`, { timeoutMs: 300 }));
    expect(result.outcome).toEqual({ kind: 'no_answer', error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(299);
  });

  it('a thread that dies fails its attempts in flight as network_error, and the next attempt gets a new thread', async () => {
    hooks.behaviour = () => undefined;
    const sent = sender.send(request(`http://127.0.0.1:${hooks.port}/in`, { timeoutMs: 10_000 }));
    await eventuallyReceived(hooks, 1);
    // What an unexpected end of the thread looks like from here (an out-of-memory, a crash).
    await (sender as unknown as { worker: import('node:worker_threads').Worker }).worker.terminate();
    const result = await sent;
    expect(result.outcome).toEqual({ kind: 'no_answer', error: 'network_error' });
    expect(result.detail).toMatch(/the sending thread stopped/);
    hooks.behaviour = answer(204);
    expect((await sender.send(request(`http://127.0.0.1:${hooks.port}/in`))).outcome).toMatchObject({
      kind: 'answer',
      statusCode: 204,
    });
  });
});

async function eventuallyReceived(hooks: WebhookReceiver, count: number): Promise<void> {
  const until = Date.now() + 5000;
  while (hooks.received.length < count) {
    if (Date.now() > until) throw new Error(`the receiver got ${hooks.received.length} of ${count} requests`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An HTTP server on a worker thread: posts its port, then each request's arrival time (ms). */
const STAMPING_RECEIVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => {
  parentPort.postMessage({ at: Date.now() });
  req.resume();
  req.on('end', () => { res.writeHead(200); res.end(); });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;
