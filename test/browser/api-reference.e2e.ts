import { chromium, type Browser } from 'playwright-core';
import { useTestPlatform } from '../support/api';

/** The API reference page in a real browser: its assets come from this app, and it lists operations. */
describe('the API reference page in a browser', () => {
  const platform = useTestPlatform();
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update'],
    });
  }, 60_000);
  afterAll(() => browser?.close());

  it('renders the operations of GET /api/v1/openapi.json, every asset from this origin', async () => {
    const base = platform().service.url;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on(
      'response',
      (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`),
    );
    const res = await page.goto(`${base}/api/v1/docs`, { timeout: 90_000 });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");

    await page.waitForSelector('.opblock-summary-path', { timeout: 150_000 });
    const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
      nodes.map((node) => node.getAttribute('data-path') ?? node.textContent ?? ''),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['/transactions', '/merchants/{merchantId}', '/platform/partners']),
    );
    expect(await page.textContent('body')).toContain('Partner Payments API');
    // No CDN: every request the page made went to this app.
    expect(requested.filter((url) => !url.startsWith(base))).toEqual([]);
    expect(requested).toEqual(
      expect.arrayContaining([
        `${base}/api/v1/docs/assets/swagger-ui-bundle.js`,
        `${base}/api/v1/openapi.json`,
      ]),
    );
    expect(errors).toEqual([]);
  }, 300_000);

  it('serves only the assets it names', async () => {
    const missing = await platform().as(null).get('/docs/assets/package.json');
    expect(missing.status).toBe(404);
    const css = await platform().as(null).get('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});
