import { answer, WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { WebhookSender, type Resolver } from './webhook-sender';

/**
 * The sender against real local receivers. Names are resolved by a resolver the test controls
 * (it plays a DNS server whose answer changes between attempts); connections are real.
 */
describe('WebhookSender', () => {
  let hooks: WebhookReceiver;
  let answers: string[][];
  const resolver: Resolver = async (hostname) => {
    const next = answers.shift();
    if (!next) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return next;
  };
  const sender = new WebhookSender(resolver);
  const send = (url: string, environment: 'sandbox' | 'production' = 'sandbox', timeoutMs = 1000) =>
    sender.send({ url, headers: { 'webhook-id': 'msg-1' }, body: '{"ok":true}', environment, timeoutMs });

  beforeEach(async () => {
    hooks = await WebhookReceiver.start(answer(200));
    answers = [];
  });
  afterEach(() => hooks.close());
  afterAll(() => sender.close());

  it('connects to the address it resolved and checked, whatever name the URL carries', async () => {
    answers.push(['127.0.0.1']);
    const result = await send(`http://hooks.partner.test:${hooks.port}/in`);
    expect(result.outcome).toEqual({ kind: 'answer', statusCode: 200, retryAfter: null });
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0].headers.host).toBe(`hooks.partner.test:${hooks.port}`);
    expect(hooks.received[0].body).toBe('{"ok":true}');
  });

  it('re-resolves at every attempt: a DNS answer that changes to a private address is refused', async () => {
    answers.push(['127.0.0.1'], ['10.0.0.7']);
    const url = `http://hooks.partner.test:${hooks.port}/in`;
    expect((await send(url)).outcome).toMatchObject({ kind: 'answer', statusCode: 200 });
    const second = await send(url);
    expect(second.outcome).toEqual({ kind: 'no_answer', error: 'address_not_allowed' });
    expect(second.detail).toMatch(/10\.0\.0\.7 is a private address/);
    expect(hooks.received).toHaveLength(1);
  });

  it('a changed DNS answer gets a connection of its own: a kept-alive socket to the old address is not reused', async () => {
    // The receiver listens on 127.0.0.1 only: a request that reaches it after the answer changed
    // to 127.0.0.2 went over the old socket.
    answers.push(['127.0.0.1'], ['127.0.0.2']);
    const url = `http://hooks.partner.test:${hooks.port}/in`;
    expect((await send(url)).outcome).toMatchObject({ kind: 'answer', statusCode: 200 });
    expect((await send(url)).outcome).toEqual({ kind: 'no_answer', error: 'connection_refused' });
    expect(hooks.received).toHaveLength(1);
  });

  it('refuses a name whose answer mixes an allowed and a refused address (no choosing among them)', async () => {
    answers.push(['127.0.0.1', '169.254.169.254']);
    const result = await send(`http://hooks.partner.test:${hooks.port}/in`);
    expect(result.outcome).toEqual({ kind: 'no_answer', error: 'address_not_allowed' });
    expect(hooks.received).toHaveLength(0);
  });

  it('in production, loopback (also mapped, also literal) is refused before connecting', async () => {
    answers.push(['::ffff:127.0.0.1']);
    expect((await send(`http://hooks.partner.test:${hooks.port}/in`, 'production')).outcome).toEqual({
      kind: 'no_answer',
      error: 'address_not_allowed',
    });
    expect((await send(`http://127.0.0.1:${hooks.port}/in`, 'production')).outcome).toMatchObject({
      error: 'address_not_allowed',
    });
    expect((await send(`http://localhost:${hooks.port}/in`, 'production')).outcome).toMatchObject({
      error: 'address_not_allowed',
    });
    expect(hooks.received).toHaveLength(0);
  });

  it('a name that does not resolve is a DNS failure', async () => {
    expect((await send('http://nowhere.partner.test/in')).outcome).toEqual({
      kind: 'no_answer',
      error: 'dns_failure',
    });
  });

  it('a redirect is an answer like any other: not followed', async () => {
    const elsewhere = await WebhookReceiver.start();
    hooks.behaviour = answer(307, { location: elsewhere.url() });
    const result = await send(hooks.url());
    expect(result.outcome).toEqual({ kind: 'answer', statusCode: 307, retryAfter: null });
    expect(elsewhere.received).toHaveLength(0);
    await elsewhere.close();
  });

  it('passes Retry-After on, and cuts a receiver that never answers at the timeout', async () => {
    hooks.behaviour = answer(429, { 'retry-after': '17' });
    expect((await send(hooks.url())).outcome).toEqual({ kind: 'answer', statusCode: 429, retryAfter: '17' });
    hooks.behaviour = () => undefined; // never answers
    const started = performance.now();
    const result = await send(hooks.url(), 'sandbox', 300);
    // Only the deadline makes this outcome (the receiver never answers nor closes); the bounds say
    // it was the 300 ms one, not an early cut nor a units slip, with room for a busy machine.
    expect(result.outcome).toEqual({ kind: 'no_answer', error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(299);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('stops at once, without an outcome, when the worker stops', async () => {
    hooks.behaviour = () => undefined;
    const stop = new AbortController();
    const pending = sender.send({
      url: hooks.url(),
      headers: {},
      body: '{}',
      environment: 'sandbox',
      timeoutMs: 5000,
      signal: stop.signal,
    });
    await hooks.waitFor((r) => r.length === 1);
    stop.abort();
    expect((await pending).outcome).toBeNull();
  });
});
