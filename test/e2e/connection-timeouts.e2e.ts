import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from '../support/app';
import { parseAnswer, type RawAnswer } from '../support/raw-http';

/**
 * No connection can be held open forever (issue 15, point 6): a client that connects and sends
 * nothing, one that sends its headers a byte at a time, one that sends its body a byte at a time
 * and an idle keep-alive connection are all closed once the configured bound has passed. The
 * bounds are small here so the test is quick; the assertions leave generous room above them
 * (Node checks for expired requests at most every second).
 */
const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
const KEEP_ALIVE_MS = 1000;
/** Node's check interval (a quarter of the headers bound, here 250 ms) plus scheduling slack. */
const SLACK_MS = 1500;

interface Held {
  socket: Socket;
  /** Milliseconds from connect to the server closing the connection, with what it said. */
  closed: Promise<{ afterMs: number; answer: RawAnswer }>;
}

function hold(url: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.once('error', () => undefined);
    socket.once('connect', () => {
      const started = performance.now();
      const closed = new Promise<{ afterMs: number; answer: RawAnswer }>((done) =>
        socket.once('close', () =>
          done({
            afterMs: performance.now() - started,
            answer: parseAnswer(Buffer.concat(chunks).toString('latin1'), true),
          }),
        ),
      );
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** Resolves with the outcome, or with null when the socket is still open after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([promise, new Promise<null>((r) => setTimeout(() => r(null), ms).unref())]);
}

describe('connection timeouts', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('closes idle sockets and header tricklers once the headers bound has passed, with a 408 problem', async () => {
    const idle = await Promise.all(Array.from({ length: 200 }, () => hold(service.url)));
    const tricklers = await Promise.all(Array.from({ length: 200 }, () => hold(service.url)));
    // One byte every 100 ms: the headers would take 10 s to arrive.
    const slowHeaders = `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(60)}\r\n\r\n`;
    for (const { socket } of tricklers) trickle(socket, slowHeaders, 100);

    const outcomes = await Promise.all(
      [...idle, ...tricklers].map(({ closed }) => within(closed, HEADERS_MS + SLACK_MS)),
    );
    for (const outcome of outcomes) {
      expect(outcome).not.toBeNull();
      expect(outcome!.afterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50);
      expect(outcome!.answer.status).toBe(408);
      expect(outcome!.answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(outcome!.answer.body)).toMatchObject({ status: 408, code: 'request_timeout' });
    }
  });

  it('closes a client that sends its body a byte at a time once the request bound has passed', async () => {
    const { socket, closed } = await hold(service.url);
    socket.write(
      'POST /api/v1/platform/partners HTTP/1.1\r\nHost: localhost\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    trickle(socket, `{"name":"${'x'.repeat(990)}"}`, 100);
    const outcome = await within(closed, REQUEST_MS + SLACK_MS);
    expect(outcome).not.toBeNull();
    expect(outcome!.afterMs).toBeGreaterThanOrEqual(REQUEST_MS - 50);
  });

  it('closes an idle keep-alive connection once the keep-alive bound has passed', async () => {
    const { socket, closed } = await hold(service.url);
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    // Node keeps an idle keep-alive socket one second past the advertised timeout, so a client
    // never sends on a connection the server is closing at that very moment.
    const outcome = await within(closed, KEEP_ALIVE_MS + 1000 + SLACK_MS);
    expect(outcome).not.toBeNull();
    expect(outcome!.answer.status).toBe(200);
    expect(outcome!.answer.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  });

  it('still serves a client that sends its request in time', async () => {
    const res = await service.call('GET', '/api/v1/health');
    expect(res.status).toBe(200);
  });
});
