import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ReconciliationSweep } from '../../libs/settlement/src/application/reconciliation-sweep';
import { OPERATOR_KEY, useTestPlatform } from '../support/api';
import { activeMerchant, vaultedCredential } from '../support/payments';
import { ROOT } from '../support/process';

const SCREENSHOTS = path.join(ROOT, 'test-results', 'operator-console');

/** The operator's read-only console in a real browser: the key typed in, never kept. */
describe('the operator console in a browser', () => {
  const platform = useTestPlatform();
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update'],
    });
  }, 60_000);
  afterAll(() => browser?.close());

  it('shows each projection’s lag, the open reconciliation exceptions and a stream’s history with its metadata, keeping the key nowhere', async () => {
    const partner = await platform().newPartner({ name: 'Console Partner' });
    // An open exception: a batch whose processor report never comes (MISSING_BATCH, by the sweep).
    const operator = platform().operator;
    const merchantId = await activeMerchant(operator, partner, 'Console Shop');
    const card = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    const sale = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchantId,
      amount: '12.00',
      currency: 'USD',
      vault_token: card,
      use_type: 'ONE_TIME_FUTURE',
    });
    expect(sale.body.state).toBe('CAPTURED');
    expect((await operator.post('/platform/settlement/run', { merchant_id: merchantId })).status).toBe(200);
    expect((await operator.post('/platform/sandbox/clock', { advance_seconds: 10 * 86_400 })).status).toBe(
      200,
    );
    await platform().service.app.get(ReconciliationSweep).sweep();
    const listed = await operator.get(
      `/platform/reconciliation-exceptions?state=OPEN&partner_id=${partner.id}`,
    );
    expect(listed.body.data.map((x: { type: string }) => x.type)).toContain('MISSING_BATCH');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blocked: string[] = [];
    page.on('console', (m) => m.type() === 'error' && blocked.push(m.text()));
    const res = await page.goto(`${platform().service.url}/api/v1/console`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'nonce-/);

    // A wrong key is refused and forgotten.
    await page.fill('#key', 'cop_wrongkey_000000000000000000000000');
    await page.click('#connect button');
    await page.waitForSelector('#status.bad');
    expect(await page.textContent('#status')).toMatch(/refused/);

    await page.fill('#key', OPERATOR_KEY);
    await page.click('#connect button');
    await page.waitForSelector('#projections tbody tr');
    const rows = await page.$$eval('#projections tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    const access = rows.find((r) => r[0] === 'partner-access');
    expect(access).toBeDefined();
    expect(access![1]).toBe('running');
    expect(Number(access![4])).toBeGreaterThanOrEqual(0);
    await page.waitForSelector('#exceptions tbody tr');
    const open = await page.$$eval('#exceptions tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(open.find((r) => r[1] === 'MISSING_BATCH' && r[3] === merchantId)).toBeDefined();
    expect(await page.textContent('#exceptions-total')).toMatch(/^\d+ open/);

    await page.fill('#stream', `partner-${partner.id}`);
    await page.click('#history button');
    await page.waitForSelector('#events tbody tr');
    const events = await page.$$eval('#events tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(events[0][1]).toBe('PartnerCreated');
    expect(events[0][3]).toContain('"actor"');
    expect(events[0][3]).toContain('platform-operator');

    // The key is in no input, storage or cookie of the page, and never in the URL.
    expect(await page.inputValue('#key')).toBe('');
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([
      0,
      0,
      '',
    ]);
    expect(page.url()).not.toContain('cop_');
    expect(blocked.filter((m) => /Content Security Policy/.test(m))).toEqual([]);

    const shot = await page.screenshot({ path: path.join(SCREENSHOTS, 'console.png'), fullPage: true });
    // A rendered page, not a blank one: a PNG of the whole page, of real size.
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    expect(shot.readUInt32BE(16)).toBe(1280);
    expect(shot.length).toBeGreaterThan(20_000);
    await page.close();
  });
});
