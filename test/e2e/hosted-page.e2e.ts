/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { useTestPlatform, type TestPartner } from '../support/api';
import { CARD_FORM, csrfOf, submitForm } from '../support/hosted-form';
import { activeMerchant } from '../support/payments';
import { checkedFetch } from '../support/checked-fetch';

/** The hosted page over plain HTTP: headers, CSRF, double submit, lockout, closed sessions. */
describe('the hosted page (HTTP)', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;

  const session = async (body: Record<string, unknown> = {}) => {
    const res = await partner.client.post('/hpp/sessions', {
      merchant_id: merchantId,
      payment_method: 'card',
      amount: '20.00',
      currency: 'USD',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const post = submitForm;
  const card = (csrf: string, overrides: Record<string, string> = {}) => ({
    csrf_token: csrf,
    ...CARD_FORM,
    ...overrides,
  });
  const captures = () => (platform().service.app.get(PaymentGateway) as SandboxGateway).effects().captures;

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner);
  });

  it('redirect mode forbids framing; iframe mode allows the embedding domains only', async () => {
    const redirect = await session();
    const page = await checkedFetch(redirect.hpp_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");

    const domains = await partner.client.put(`/config/hpp-page/merchants/${merchantId}/embedding-domains`, {
      domains: ['shop.example.com'],
    });
    expect([200, 201]).toContain(domains.status);
    const framed = await session({ rendering_mode: 'iframe' });
    const inFrame = await checkedFetch(framed.iframe_url);
    const csp = inFrame.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors');
    expect(csp).toContain('shop.example.com');
    expect(inFrame.headers.get('x-frame-options')).toBeNull();
  });

  it('a post without a valid CSRF token charges nothing', async () => {
    const s = await session();
    const before = captures();
    const res = await post(s.hpp_url, card('forged'));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<form');
    expect(captures()).toBe(before);
    expect((await partner.client.get(`/hpp/sessions/${s.id}`)).body.state).toBe('PENDING');
  });

  it('a double submit completes once and charges once; both answers lead to the result', async () => {
    const s = await session();
    const csrf = csrfOf(await (await checkedFetch(s.hpp_url)).text());
    const before = captures();
    const [a, b] = await Promise.all([post(s.hpp_url, card(csrf)), post(s.hpp_url, card(csrf))]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.get('location')).toBe(`${s.hpp_url}/result`);
    expect(captures() - before).toBe(1);
    const read = await partner.client.get(`/hpp/sessions/${s.id}`);
    expect(read.body.state).toBe('COMPLETED');
    const stream = await platform().operator.get(`/platform/streams/hpp_session-${s.id}/events`);
    expect(stream.body.data.filter((e: any) => e.type === 'HppSessionCompleted')).toHaveLength(1);
    const result = await checkedFetch(`${s.hpp_url}/result`);
    expect(await result.text()).toContain('data-outcome="approved"');
  });

  it('a decline re-renders the form; the fifth failed attempt locks the session', async () => {
    const s = await session({ amount: '20.05' });
    let html = await (await checkedFetch(s.hpp_url)).text();
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await post(s.hpp_url, card(csrfOf(html)));
      expect(res.status).toBe(402);
      html = await res.text();
      expect(html).not.toContain('4111111111111111');
    }
    const fifth = await post(s.hpp_url, card(csrfOf(html)));
    expect(fifth.status).toBe(303);
    const read = await partner.client.get(`/hpp/sessions/${s.id}`);
    expect(read.body).toMatchObject({ state: 'CANCELLED', last_attempt: { reason: 'insufficient_funds' } });
    const page = await checkedFetch(`${s.hpp_url}/result`);
    expect(await page.text()).toContain('data-outcome="locked"');
  });

  it('the partner’s accepted_methods hold on the page: a debit card is refused when only credit cards are accepted', async () => {
    const other = await platform().newPartner();
    const otherMerchant = await activeMerchant(platform().operator, other);
    const set = await other.client.put(`/config/partners/${other.id}`, {
      hpp_settings: { accepted_methods: ['credit_card'] },
    });
    expect(set.status).toBe(200);
    const created = await other.client.post('/hpp/sessions', { merchant_id: otherMerchant, amount: '15.00' });
    expect(created.status).toBe(201);
    const before = captures();
    const html = await (await checkedFetch(created.body.hpp_url)).text();
    const debit = await post(created.body.hpp_url, card(csrfOf(html), { card_number: '4000056655665556' }));
    expect(debit.status).toBe(422);
    const again = await debit.text();
    expect(again).toContain('Debit cards are not accepted here.');
    expect(again).not.toContain('4000056655665556');
    expect(captures()).toBe(before);
    const read = await other.client.get(`/hpp/sessions/${created.body.id}`);
    expect(read.body).toMatchObject({ state: 'PENDING', last_attempt: { reason: 'card_type_not_accepted' } });
    const credit = await post(created.body.hpp_url, card(csrfOf(again)));
    expect(credit.status).toBe(303);
    expect(captures()).toBe(before + 1);
  });

  it('cancelled and expired sessions show a clear page and charge nothing', async () => {
    const cancelled = await session();
    const csrf = csrfOf(await (await checkedFetch(cancelled.hpp_url)).text());
    expect((await partner.client.post(`/hpp/sessions/${cancelled.id}/cancel`)).status).toBe(200);
    const before = captures();
    const res = await post(cancelled.hpp_url, card(csrf));
    expect(res.status).toBe(303);
    expect(await (await checkedFetch(`${cancelled.hpp_url}/result`)).text()).toContain(
      'data-outcome="cancelled"',
    );
    expect(captures()).toBe(before);

    const expiring = await session();
    await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 1801 });
    const page = await checkedFetch(expiring.hpp_url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const result = await checkedFetch(`${expiring.hpp_url}/result`);
    expect(result.status).toBe(410);
    expect(await result.text()).toContain('data-outcome="expired"');
  });

  it('an unknown session is a 404 page, not JSON', async () => {
    const res = await checkedFetch(
      `${platform().service.url}/api/v1/hpp/00000000-0000-4000-8000-000000000000`,
    );
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('data-outcome="not_found"');
  });
});
