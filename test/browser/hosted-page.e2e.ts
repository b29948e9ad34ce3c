import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { ApiClient, type TestPartner } from '../support/api';
import type { TestService } from '../support/app';
import { createTestDatabase, dropTestDatabase } from '../support/database';
import { TO_ACTIVE } from '../support/payments';
import { buildOnce, ROOT, startProcess, waitForHealth, type ServiceProcess } from '../support/process';
import { checkedFetch } from '../support/checked-fetch';

const CARD = '4111111111111111';
const ACCOUNT = '000123456789';
const SCREENSHOTS = path.join(ROOT, 'test-results', 'hosted-page');

/**
 * The hosted payment page in a real browser (Debian's Chromium driven by playwright-core), against
 * the service run as `npm start` runs it, so its logs can be searched too. A payer pays and saves
 * a card, and saves a bank account; afterwards the card number and the account number are nowhere:
 * not in any table (the event store included) and not in the logs.
 */
describe('the hosted payment page in a browser', () => {
  let proc: ServiceProcess;
  let databaseUrl: string;
  let url: string;
  let browser: Browser;
  let operator: ApiClient;
  let partner: TestPartner;
  let merchantId: string;
  let customerId: string;

  const client = (key: string) => {
    const service = {
      url,
      call: (method: string, p: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
        checkedFetch(`${url}${p}`, {
          method,
          headers: {
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...options.headers,
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        }),
    } as unknown as TestService;
    return new ApiClient(service, key);
  };

  beforeAll(async () => {
    buildOnce();
    mkdirSync(SCREENSHOTS, { recursive: true });
    databaseUrl = await createTestDatabase('browser');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const operatorKey = generateKey('cop').key;
    proc = startProcess({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(ROOT, '.data', 'test-browser'),
      PLATFORM_OPERATOR_KEY: operatorKey,
      VAULT_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'debug',
    });
    await waitForHealth(url, proc);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox'],
    });

    operator = client(operatorKey);
    const created = await operator.post('/platform/partners', {
      name: 'Browser Partner',
      contact_email: 'ops@browser.test',
      contact_name: 'Ops',
    });
    const key = await operator.post(`/platform/partners/${created.body.id}/api-keys`, {});
    partner = {
      id: created.body.id,
      keyId: key.body.id,
      key: key.body.api_key,
      client: client(key.body.api_key),
    };
    const ach = await operator.put(`/platform/partners/${partner.id}/feature-flags/ach_payments`, {
      enabled: true,
    });
    expect(ach.status).toBe(200);
    const merchant = await partner.client.post('/merchants', {
      business_name: 'Corner Bakery',
      contact_email: 'owner@bakery.test',
      contact_name: 'Sam Baker',
      merchant_category_code: '5812',
    });
    merchantId = merchant.body.id;
    await partner.client.post(`/merchants/${merchantId}/submit`);
    for (const action of TO_ACTIVE) {
      const res = await operator.post(`/platform/merchants/${merchantId}/transitions`, { action });
      expect([action, res.status]).toEqual([action, 200]);
    }
    customerId = (
      await partner.client.post(`/merchants/${merchantId}/customers`, { email: 'payer@example.com' })
    ).body.id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    proc?.child.kill('SIGTERM');
    await proc?.exited;
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  const newSession = async (body: Record<string, unknown>) => {
    const res = await partner.client.post('/hpp/sessions', { merchant_id: merchantId, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };

  const open = async (hppUrl: string, viewport = { width: 1024, height: 800 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    const response = await page.goto(hppUrl);
    expect(response?.status()).toBe(200);
    return page;
  };

  it('pays and saves a card: a typo is shown per field, then 303 to the result; session, transaction and credential agree', async () => {
    const session = await newSession({
      payment_method: 'card',
      amount: '25.00',
      currency: 'USD',
      save_payment_method: true,
      credential_usages: ['ONE_TIME_FUTURE', 'RECURRING'],
      customer_id: customerId,
    });
    const page = await open(session.hpp_url);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('script').count()).toBe(0);
    const shot = await page.screenshot({ path: path.join(SCREENSHOTS, 'card-payment.png'), fullPage: true });
    // A real PNG of a real page was stored (signature, and more than a blank frame's bytes).
    const stored = readFileSync(path.join(SCREENSHOTS, 'card-payment.png'));
    expect(stored.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(stored.equals(shot)).toBe(true);
    expect(stored.length).toBeGreaterThan(5_000);

    await page.getByLabel(/card number/i).fill('4111 1111 1111 1112');
    await page.getByLabel(/month/i).fill('12');
    await page.getByLabel(/year/i).fill('2030');
    await page.getByLabel(/security code|cvc/i).fill('123');
    await page.getByLabel(/postal|zip/i).fill('94107');
    await page.locator('button[type=submit]').click();
    await page.waitForLoadState();
    const cardField = page.locator('[name=card_number]');
    expect(await cardField.getAttribute('aria-invalid')).toBe('true');
    expect(await cardField.inputValue()).toBe(''); // never re-filled
    expect(await page.content()).not.toContain('4111111111111112');

    await cardField.fill(CARD);
    await page.getByLabel(/security code|cvc/i).fill('123');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/result$/);
    expect(await page.locator('main').getAttribute('data-outcome')).toBe('approved');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'card-result.png'), fullPage: true });
    await page.close();

    const read = await partner.client.get(`/hpp/sessions/${session.id}`);
    expect(read.body).toMatchObject({
      state: 'COMPLETED',
      tokenization_outcome: 'stored',
      vault_token: expect.stringMatching(/^cvt_/),
      transaction_id: expect.any(String),
      card: { last4: '1111', expiry_month: 12, expiry_year: 2030 },
      completed_at: expect.any(String),
    });
    const transaction = await partner.client.get(`/transactions/${read.body.transaction_id}`);
    expect(transaction.body).toMatchObject({
      type: 'SALE',
      state: 'CAPTURED',
      amount: '25.00',
      customer_id: customerId,
    });
    const credentials = await partner.client.get(
      `/merchants/${merchantId}/stored-credentials?customer_id=${customerId}`,
    );
    expect(credentials.body.data).toEqual([
      expect.objectContaining({
        vault_token: read.body.vault_token,
        scope: ['ONE_TIME_FUTURE', 'RECURRING'],
        consent_captured: true,
        card: expect.objectContaining({ last4: '1111' }),
      }),
    ]);
    // An operator replays the transaction's story from the command line (CONTRACT §2).
    // Asynchronously: a process held up for seconds would reuse a kept-alive connection the
    // service closed meanwhile ("other side closed").
    const history = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'dist/apps/api/src/ops.js'), 'history', 'transaction', read.body.transaction_id],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    const story = history.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(story.map((e: { type: string }) => e.type)).toEqual([
      'TransactionInitiated',
      'TransactionApproved',
    ]);
    expect(story[0].metadata).toMatchObject({ actor: `hpp:${session.id}`, partner_id: partner.id });
    expect(story[0].data).toMatchObject({ type: 'SALE', amountMinor: '2500', source: 'hpp' });

    // The saved card charges again through POST /transactions.
    const again = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchantId,
      amount: '9.00',
      currency: 'USD',
      vault_token: read.body.vault_token,
      use_type: 'RECURRING',
    });
    expect(again.body.state).toBe('CAPTURED');

    // Completed once: the page now shows the result, and a second post charges nothing.
    const reopened = await browser.newPage();
    await reopened.goto(session.hpp_url);
    expect(reopened.url()).toMatch(/\/result$/);
    await reopened.close();
  });

  it('saves a bank account on a save page (ACH)', async () => {
    const session = await newSession({
      payment_method: 'ach',
      page_purpose: 'save_payment_method',
      credential_usages: ['RECURRING'],
    });
    const page = await open(session.hpp_url);
    await page.getByLabel(/routing/i).fill('011000015');
    await page.getByLabel(/account number/i).fill(ACCOUNT);
    await page.getByLabel(/account type/i).selectOption('SAVINGS');
    await page.getByLabel(/name on (the )?account/i).fill('Sam Baker');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'ach-save.png'), fullPage: true });
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/result$/);
    expect(await page.locator('main').getAttribute('data-outcome')).toBe('saved');
    await page.close();
    const read = await partner.client.get(`/hpp/sessions/${session.id}`);
    expect(read.body).toMatchObject({
      state: 'COMPLETED',
      transaction_id: null,
      tokenization_outcome: 'stored',
      bank: { account_type: 'SAVINGS', account_last4: '6789', routing_last4: '0015' },
    });
  });

  it('pays by ACH on a payment page', async () => {
    const session = await newSession({ payment_method: 'ach', amount: '12.00', currency: 'USD' });
    const page = await open(session.hpp_url);
    await page.getByLabel(/routing/i).fill('011000015');
    await page.getByLabel(/account number/i).fill(ACCOUNT);
    await page.getByLabel(/name on (the )?account/i).fill('Sam Baker');
    // The account type has no default: the payer must choose.
    await page.locator('button[type=submit]').click();
    await page.waitForLoadState();
    expect(await page.locator('[name=account_type]').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel(/account number/i).fill(ACCOUNT);
    await page.getByLabel(/account type/i).selectOption('CHECKING');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/result$/);
    expect(await page.locator('main').getAttribute('data-outcome')).toBe('approved');
    await page.close();
    const read = await partner.client.get(`/hpp/sessions/${session.id}`);
    const transaction = await partner.client.get(`/transactions/${read.body.transaction_id}`);
    expect(transaction.body).toMatchObject({ type: 'ACH_DEBIT', state: 'SUBMITTED', amount: '12.00' });
    expect(read.body.vault_token).toBeNull();
  });

  it('fits a phone: no sideways scrolling at 375 px, and the pay button is on screen', async () => {
    const session = await newSession({ payment_method: 'card', amount: '5.00', currency: 'USD' });
    const page = await open(session.hpp_url, { width: 375, height: 667 });
    // Evaluated in the page; a string keeps DOM types out of this Node-only TypeScript project.
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const button = await page.locator('button[type=submit]').boundingBox();
    expect(button!.x).toBeGreaterThanOrEqual(0);
    expect(button!.x + button!.width).toBeLessThanOrEqual(375);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'phone.png'), fullPage: true });
    await page.close();
  });

  it('leaves no card or account number in any table, the event store included, or in the logs', async () => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows: tables } = await db.query<{ schema: string; name: string }>(
        `select table_schema as schema, table_name as name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      );
      expect(tables.length).toBeGreaterThan(5);
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['vault_entries']));
      for (const t of tables) {
        const { rows } = await db.query<{ hits: string }>(
          `select count(*) as hits from "${t.schema}"."${t.name}" r
            where r::text like '%' || $1 || '%' or r::text like '%' || $2 || '%'`,
          [CARD, ACCOUNT],
        );
        expect([`${t.schema}.${t.name}`, Number(rows[0].hits)]).toEqual([`${t.schema}.${t.name}`, 0]);
      }
    } finally {
      await db.end();
    }
    expect(proc.output().length).toBeGreaterThan(0);
    expect(proc.output()).not.toContain(CARD);
    expect(proc.output()).not.toContain(ACCOUNT);
  });
});
