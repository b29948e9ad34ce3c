import { stat } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { WebhookSender, type AttemptSender, type SendRequest, type SendResult } from './webhook-sender';

/** What the service's thread asks the sending thread. */
type ToSender =
  { kind: 'send'; id: number; request: Omit<SendRequest, 'signal'> } | { kind: 'abort'; id: number };
/** What the sending thread answers: one result per send. */
interface FromSender {
  id: number;
  result: SendResult;
}

const ROLE = 'webhook-sender';
/**
 * The sending thread's nice value (Linux keeps one per thread): when the machine's cores are all
 * busy, the requests' thread (payments, with a client waiting) goes first and attempts wait their
 * turn; they are asynchronous, with seconds to spare. Not starved: at nice 10 the thread still
 * gets about a tenth of a busy core's time, and at most 128 attempts are in flight anyway.
 */
const SENDING_THREAD_NICE = 10;
/**
 * Results go back together every few milliseconds, not one message each: a message wakes the
 * requests' thread, and nothing waits on a result's first millisecond (outcomes are recorded in
 * batches every 100 ms; the duration is measured on the sending thread).
 */
const RESULT_FLUSH_MS = 5;
/** An attempt cut short by the stop (or never started): nothing to record, the lease goes back. */
const NO_OUTCOME: SendResult = Object.freeze({ outcome: null, durationMs: 0, detail: null });

/**
 * The webhook attempts' HTTP exchanges on a thread of their own (docs/adr/0006-webhook-delivery.md).
 *
 * The service's thread runs the write path and delivery on one event loop; at a few hundred SALEs a
 * second that loop is the bottleneck, and each attempt's exchange (resolving and checking the host,
 * undici's request and response, the socket's write and read, their garbage) cost it about a
 * fifth of a millisecond. Here it costs its share of a message each way (the attempts of one turn
 * go in one message, the results of a few milliseconds come back in one); the exchange runs on
 * this thread, with the same {@link WebhookSender} (same URL checks at every attempt, same
 * deadline, same 64 KiB cap), at a lower priority than the requests' thread, while that thread
 * goes on with requests. Queueing, leases, signing and recording
 * stay where they were: only the exchange moved, so nothing about the delivery guarantees changed.
 *
 * The thread starts with the first attempt (a process that never delivers never starts it) and
 * again after it ever stopped; an attempt in flight when it stops unexpectedly counts as failed
 * with `network_error` (its request may have left, so it is retried on the schedule, never
 * silently dropped).
 */
export class ThreadedWebhookSender implements AttemptSender {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (result: SendResult) => void>();
  private outbox: ToSender[] = [];

  send(request: SendRequest): Promise<SendResult> {
    const { signal, ...rest } = request;
    if (signal?.aborted) return Promise.resolve(NO_OUTCOME);
    this.thread();
    const id = this.nextId++;
    return new Promise<SendResult>((resolve) => {
      const abort = () => this.post({ kind: 'abort', id });
      signal?.addEventListener('abort', abort, { once: true });
      this.pending.set(id, (result) => {
        signal?.removeEventListener('abort', abort);
        resolve(result);
      });
      this.post({ kind: 'send', id, request: rest });
    });
  }

  /**
   * Messages of one turn of the event loop go in one post (the projector hands a batch's
   * deliveries over together): one wake-up of the sending thread, not one per attempt.
   */
  private post(message: ToSender): void {
    this.outbox.push(message);
    if (this.outbox.length > 1) return;
    queueMicrotask(() => {
      const messages = this.outbox;
      this.outbox = [];
      // The thread of the moment: close() empties the outbox, and a thread's end is an event,
      // which never comes between a turn and its microtasks.
      if (messages.length > 0) this.worker?.postMessage(messages);
    });
  }

  close(): void {
    const worker = this.worker;
    this.worker = null;
    this.outbox = [];
    if (!worker) return;
    this.settleAll(NO_OUTCOME);
    void worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // libuv's thread pool is made by the first thread that needs it and its threads inherit that
    // thread's nice value: made here first, so the sending thread's lower priority stays its own.
    stat(__filename, () => undefined);
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { role: ROLE, file: __filename } });
    // Never what keeps a process alive: the service's own handles do that until close().
    worker.unref();
    worker.on('message', (results: FromSender[]) => {
      for (const { id, result } of results) {
        const settle = this.pending.get(id);
        this.pending.delete(id);
        settle?.(result);
      }
    });
    const stopped = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settleAll({
        outcome: { kind: 'no_answer', error: 'network_error' },
        durationMs: 0,
        detail: `the sending thread stopped (${reason})`.slice(0, 300),
      });
    };
    worker.on('error', (err) => stopped(err.message));
    worker.on('exit', (code) => stopped(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private settleAll(result: SendResult): void {
    const settles = [...this.pending.values()];
    this.pending.clear();
    for (const settle of settles) settle(result);
  }
}

/**
 * Loads this file on the new thread. Built, it is JavaScript; run from the TypeScript sources (the
 * tests), each `.ts` file the thread requires is transpiled on the way in, as the test runner does
 * for the main thread, and kept in the system's temporary directory by content hash (loading the
 * compiler costs a thread start about a second; the tests start many).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.file.endsWith('.ts')) {
  const fs = require('node:fs');
  const path = require('node:path');
  const { createHash } = require('node:crypto');
  const cache = path.join(require('node:os').tmpdir(), 'partner-payments-ts-cache');
  let ts = null;
  require.extensions['.ts'] = (module, filename) => {
    const source = fs.readFileSync(filename, 'utf8');
    const cached = path.join(cache, createHash('sha256').update(filename).update(source).digest('hex') + '.js');
    let output;
    try {
      output = fs.readFileSync(cached, 'utf8');
    } catch {
      ts = ts || require('typescript');
      output = ts.transpileModule(source, {
        fileName: filename,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      }).outputText;
      fs.mkdirSync(cache, { recursive: true });
      const partial = cached + '.' + process.pid + '.' + require('node:worker_threads').threadId;
      fs.writeFileSync(partial, output);
      fs.renameSync(partial, cached);
    }
    module._compile(output, filename);
  };
}
require(workerData.file);
`;

/** The sending thread: one WebhookSender, its attempts run side by side. */
function serveSends(port: MessagePort): void {
  try {
    setPriority(SENDING_THREAD_NICE); // this thread only (see SENDING_THREAD_NICE)
  } catch {
    // Not allowed here (a platform without per-thread priorities): attempts run at normal priority.
  }
  const sender = new WebhookSender();
  const running = new Map<number, AbortController>();
  let done: FromSender[] = [];
  const finish = (id: number, result: SendResult) => {
    running.delete(id);
    done.push({ id, result });
    if (done.length > 1) return;
    setTimeout(() => {
      const results = done;
      done = [];
      port.postMessage(results);
    }, RESULT_FLUSH_MS);
  };
  port.on('message', (messages: ToSender[]) => {
    for (const message of messages) {
      if (message.kind === 'abort') {
        running.get(message.id)?.abort();
        continue;
      }
      const stop = new AbortController();
      running.set(message.id, stop);
      void sender
        .send({ ...message.request, signal: stop.signal })
        .catch((err: unknown): SendResult => ({
          outcome: { kind: 'no_answer', error: 'network_error' },
          durationMs: 0,
          detail: String((err as Error)?.message ?? err).slice(0, 300),
        }))
        .then((result) => finish(message.id, result));
    }
  });
}

if (!isMainThread && parentPort && (workerData as { role?: string } | null)?.role === ROLE) {
  serveSends(parentPort);
}
