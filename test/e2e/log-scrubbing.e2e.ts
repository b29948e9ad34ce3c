import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startService, type RunningService } from '../../apps/api/src/server';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { luhnDigitsValid as luhnValid } from '../../libs/platform/src/banking/luhn';
import { loadConfig } from '../../libs/platform/src/config/config';
import { createLogger } from '../../libs/platform/src/logging/logger';
import { ApiClient, OPERATOR_KEY } from '../support/api';
import { callerFor, checkAgainstItsDocument, type TestService } from '../support/app';
import { activeMerchant } from '../support/payments';
import { rawRequest } from '../support/raw-http';
import { checkedFetch } from '../support/checked-fetch';

/** A Luhn-valid card number of `length` digits, different for every `seed`. */
function card(prefix: string, length: number, seed: number): string {
  let body = prefix;
  let x = seed * 7919 + 17;
  while (body.length < length - 1) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    body += String(x % 10);
  }
  for (let check = 0; check <= 9; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('unreachable');
}

const spaced = (n: string, sep: string) => n.match(/.{1,4}/g)!.join(sep);

/**
 * Nothing sensitive in the logs (issue 15, point 4). The real service, with its own embedded
 * PostgreSQL and logging at `trace` into a captured destination, is sent a hostile set of
 * requests carrying card numbers (query strings, paths, headers, malformed requests and bodies,
 * form posts to the hosted page), bank account and routing numbers, and a key in a query string;
 * a failing SQL statement quotes a card number into PostgreSQL's own log. Then the captured log
 * is searched for every planted number, however it might be spelled.
 */
describe('the log after a hostile run', () => {
  const lines: string[] = [];
  let dataDir: string;
  let running: RunningService;
  let forgetDocument: (() => void) | undefined;
  let service: TestService;
  let operator: ApiClient;

  // The issue's own numbers, then one per vector so a leak names its way in.
  const ISSUE_CARD = '4111111111111111';
  const cards = {
    spacedQuery: card('4', 16, 1),
    plusQuery: card('5', 16, 2),
    dashedQuery: card('37', 15, 3),
    glued: card('6', 19, 4),
    path: card('4', 13, 5),
    requestId: card('4', 16, 6),
    userAgent: card('5', 16, 7),
    referer: card('4', 16, 8),
    bearer: card('4', 16, 9),
    badJson: card('4', 16, 10),
    textBody: card('4', 16, 11),
    utf16Body: card('4', 16, 12),
    protocolLine: card('4', 16, 13),
    unknownMethod: card('4', 16, 14),
    bigHeader: card('4', 16, 15),
    formApproved: card('4', 16, 16),
    formForged: card('4', 16, 17),
    formDeclined: card('4', 16, 18),
    formMixed: card('4', 16, 20),
    sql: card('4', 16, 19),
  };
  const accounts = {
    accountInQuery: '987650004321',
    accountInPath: '876540003210',
    accountInForm: '765430002109',
    accountInForgedForm: '654320001098',
  };
  const ROUTING = '011000015';
  let partnerKey: string;
  /** A terminal key (`ctk_`), shaped as provisioning issues them. */
  const terminalKey = generateKey('ctk').key;

  /** Every text the log holds (messages, fields, keys), percent-decoded, separators removed. */
  function searchable(): string {
    const texts: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string' || typeof value === 'number') texts.push(String(value));
      else if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          texts.push(key);
          walk(child);
        }
      }
    };
    for (const line of lines) {
      try {
        walk(JSON.parse(line));
      } catch {
        texts.push(line);
      }
    }
    const decoded = texts.join('\n').replace(/(?:%[0-9A-Fa-f]{2})+/g, (s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    return decoded.replace(/[\s+-]/g, '');
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'payments-logs-'));
    chmodSync(dataDir, 0o755); // the embedded server may run as the `postgres` user
    const config = loadConfig({
      PORT: '0',
      LOG_LEVEL: 'trace',
      DATA_DIR: dataDir,
      PLATFORM_OPERATOR_KEY: OPERATOR_KEY,
    });
    const logger = createLogger(config.logLevel, { write: (line: string) => void lines.push(line) });
    running = await startService(config, logger);
    forgetDocument = (await checkAgainstItsDocument(running)).forget;
    service = {
      ...running,
      call: callerFor(running.url),
      close: () => running.stop(),
    };
    operator = new ApiClient(service, OPERATOR_KEY);
  }, 120_000);

  afterAll(async () => {
    forgetDocument?.();
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds no card, account or routing number, nor a key secret, anywhere', async () => {
    const url = running.url;
    const created = await operator.post('/platform/partners', {
      name: 'Hostile Test Inc',
      contact_email: 'hostile@example.test',
      contact_name: 'Mallory',
    });
    const issued = await operator.post(`/platform/partners/${created.body.id}/api-keys`, {});
    partnerKey = issued.body.api_key;
    const partner = {
      id: created.body.id as string,
      keyId: issued.body.id as string,
      key: partnerKey,
      client: new ApiClient(service, partnerKey),
    };
    const merchantId = await activeMerchant(operator, partner);
    const auth = { authorization: `Bearer ${partnerKey}` };
    const session = async (amount: string) => {
      const res = await partner.client.post('/hpp/sessions', {
        merchant_id: merchantId,
        amount,
        currency: 'USD',
      });
      expect(res.status).toBe(201);
      return res.body as { id: string; hpp_url: string };
    };

    // The issue's two requests.
    await checkedFetch(`${url}/api/v1/transactions?q=${ISSUE_CARD}`, { headers: auth });
    await checkedFetch(`${url}/api/v1/hpp/${randomUUID()}?card_number=${ISSUE_CARD}`);

    // Card numbers in query strings, spelled with separators and escapes.
    await checkedFetch(`${url}/api/v1/transactions?q=${spaced(cards.spacedQuery, '%20')}`, { headers: auth });
    await checkedFetch(`${url}/api/v1/transactions?q=${spaced(cards.plusQuery, '+')}&page_size=5`, {
      headers: auth,
    });
    await checkedFetch(`${url}/api/v1/transactions?merchant_id=${spaced(cards.dashedQuery, '-')}`, {
      headers: auth,
    });
    await checkedFetch(`${url}/api/v1/transactions?q=%20${cards.glued}`, { headers: auth });

    // In a path.
    await checkedFetch(`${url}/api/v1/transactions/${cards.path}`, { headers: auth });

    // In headers, one of which (X-Request-Id) would otherwise be printed on every line.
    const tagged = await checkedFetch(`${url}/api/v1/partner/me`, {
      headers: {
        ...auth,
        'x-request-id': cards.requestId,
        'user-agent': `card ${cards.userAgent}`,
        referer: `https://shop.example/checkout?pan=${cards.referer}`,
      },
    });
    expect(tagged.headers.get('x-request-id')).not.toBe(cards.requestId);
    await checkedFetch(`${url}/api/v1/partner/me`, { headers: { authorization: `Bearer ${cards.bearer}` } });

    // In bodies of malformed or refused requests.
    const write = { ...auth, 'idempotency-key': randomUUID() };
    await checkedFetch(`${url}/api/v1/transactions`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'application/json' },
      body: `{"type":"SALE","card_number": ${spaced(cards.badJson, ' ')}`,
    });
    await checkedFetch(`${url}/api/v1/transactions`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'text/plain' },
      body: `card_number=${cards.textBody}`,
    });
    await checkedFetch(`${url}/api/v1/transactions`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'application/json; charset=utf-16' },
      body: Buffer.from(`{"card_number":"${cards.utf16Body}"}`, 'utf16le'),
    });

    // Requests HTTP itself refuses, the number in the request line or a header.
    await rawRequest(
      url,
      `GET /api/v1/transactions?q=${cards.protocolLine} HTTP/1.1\r\nHost: x\r\nX: a\0b\r\n\r\n`,
    );
    await rawRequest(url, `FROB /api/v1/cards/${cards.unknownMethod} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await rawRequest(
      url,
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Card: ${`${cards.bigHeader} `.repeat(4000)}\r\n\r\n`,
    );

    // Bank account and routing numbers, in a query string and a path.
    await checkedFetch(
      `${url}/api/v1/transactions?account_number=${accounts.accountInQuery}&routing_number=${ROUTING}`,
      {
        headers: auth,
      },
    );
    await checkedFetch(`${url}/api/v1/bank/account_number/${accounts.accountInPath}`, { headers: auth });

    // A key in a query string, a partner's and a terminal's.
    await checkedFetch(`${url}/api/v1/partner/me?api_key=${partnerKey}`);
    await checkedFetch(`${url}/api/v1/partner/me?key=${terminalKey}`);

    // Form posts to the hosted page: approved, forged (no valid CSRF token) and declined.
    const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];
    const form = (target: string, fields: Record<string, string>) =>
      checkedFetch(target, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const fields = (csrf: string, pan: string) => ({
      csrf_token: csrf,
      card_number: spaced(pan, ' '),
      exp_month: '12',
      exp_year: '2030',
      cvc: '123',
      postal_code: '94107',
    });
    const bank = (account: string) => ({ account_number: account, routing_number: ROUTING });
    const csrfFor = async (target: string) => csrfOf(await (await checkedFetch(target)).text());
    const approved = await session('25.00');
    const paid = await form(approved.hpp_url, fields(await csrfFor(approved.hpp_url), cards.formApproved));
    expect(paid.status).toBe(303);
    const forged = await session('25.00');
    const refused = await form(forged.hpp_url, {
      ...fields('forged', cards.formForged),
      ...bank(accounts.accountInForgedForm),
    });
    expect(refused.status).toBe(403);
    const declined = await session('20.05');
    const again = await form(declined.hpp_url, fields(await csrfFor(declined.hpp_url), cards.formDeclined));
    expect(again.status).toBe(402);
    // Fields a card page does not take are refused with the form again.
    const mixed = await session('25.00');
    const odd = await form(mixed.hpp_url, {
      ...fields(await csrfFor(mixed.hpp_url), cards.formMixed),
      ...bank(accounts.accountInForm),
    });
    expect([400, 422]).toContain(odd.status);

    // A failing statement that quotes a card number: PostgreSQL logs it, with the statement.
    await expect(running.infra.pool.query(`select '${cards.sql}'::uuid`)).rejects.toThrow(/uuid/);

    // PostgreSQL's log arrives on its own stream: wait until its lines are in.
    const deadline = performance.now() + 10_000;
    while (
      !lines.some((l) => l.includes('invalid input syntax for type uuid')) &&
      performance.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }

    // None of the planted numbers, however separated or encoded.
    const text = searchable();
    const planted = {
      issue: ISSUE_CARD,
      ...cards,
      ...accounts,
      routing: ROUTING,
      key: partnerKey.slice(13),
      terminalKey: terminalKey.slice(13),
    };
    expect(Object.entries(planted).filter(([, value]) => text.includes(value))).toEqual([]);

    // And the run did reach the log: request lines, refused requests and PostgreSQL's lines.
    const log = lines.join('');
    expect(log).toContain(`/api/v1/transactions?q=[card ****${ISSUE_CARD.slice(-4)}]`);
    expect(log).toContain('card_number=[redacted]');
    expect(log).toContain('refused a request HTTP could not parse');
    expect(log).toMatch(/invalid input syntax for type uuid: \\"\[card \*{4}\d{4}\]\\"/);
    expect(log).toContain(`api_key=${partnerKey.slice(0, 13)}[redacted]`);
    expect(log).toContain(`key=${terminalKey.slice(0, 13)}[redacted]`);
  });
});
