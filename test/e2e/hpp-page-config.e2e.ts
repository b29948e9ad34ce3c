/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, UUID } from '../support/problems';

describe('hosted-payment-page configuration', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  beforeAll(async () => {
    partner = await platform().newPartner();
    const merchant = await partner.client.post('/merchants', {
      business_name: 'Page Cafe',
      contact_email: 'a@page.test',
      contact_name: 'Pat',
      merchant_category_code: '5812',
    });
    merchantId = merchant.body.id;
  });

  it('without any configuration the effective page is the platform default', async () => {
    const res = await partner.client.get(`/config/hpp-page?merchant_id=${merchantId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: null,
      partner_id: partner.id,
      merchant_id: merchantId,
      source: 'default',
      is_active: true,
      embedding_domains: [],
      appearance: { presetKey: 'default', typography: { fontFamily: expect.any(String) } },
    });
    expect((await partner.client.get('/config/hpp-page/configs')).body).toEqual([]);
  });

  it('without merchant_id it answers the partner template: the platform defaults until one is saved, then the saved one, active or not', async () => {
    const fresh = await platform().newPartner();
    const before = await fresh.client.get('/config/hpp-page');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      id: null,
      partner_id: fresh.id,
      merchant_id: null,
      is_template: true,
      is_active: true,
      source: 'default',
      appearance: { presetKey: 'default' },
    });
    const saved = await fresh.client.put('/config/hpp-page', {
      appearance: { presetKey: 'dark' },
      is_active: false,
    });
    expect(saved.status).toBe(200);
    expect((await fresh.client.get('/config/hpp-page')).body).toMatchObject({
      id: saved.body.id,
      is_template: true,
      is_active: false,
      source: 'template',
      appearance: { presetKey: 'dark' },
    });
  });

  it('a template applies to every merchant; an override wins for its merchant; delete falls back', async () => {
    const template = await partner.client.put('/config/hpp-page', {
      appearance: { presetKey: 'dark', button: { fill: '#0055ff', border: '#003399' } },
    });
    expect(template.status).toBe(200);
    expect(template.body).toMatchObject({
      id: expect.stringMatching(UUID),
      partner_id: partner.id,
      merchant_id: null,
      is_template: true,
      is_active: true,
      appearance: { presetKey: 'dark', button: { fill: '#0055ff', border: '#003399' } },
    });
    const viaTemplate = await partner.client.get(`/config/hpp-page?merchant_id=${merchantId}`);
    expect(viaTemplate.body).toMatchObject({ source: 'template', id: template.body.id });

    const override = await partner.client.put(`/config/hpp-page/merchants/${merchantId}`, {
      appearance: { header: { bg: '#ffffff', border: '#dddddd', fontSize: 20, fontColor: '#111111' } },
    });
    expect(override.status).toBe(200);
    expect(override.body).toMatchObject({ merchant_id: merchantId, is_template: false });
    const viaOverride = await partner.client.get(`/config/hpp-page?merchant_id=${merchantId}`);
    expect(viaOverride.body).toMatchObject({ source: 'override', appearance: { header: { fontSize: 20 } } });

    const list = await partner.client.get('/config/hpp-page/configs');
    expect(list.body.map((c: any) => [c.is_template, c.merchant_id])).toEqual([
      [true, null],
      [false, merchantId],
    ]);

    const deleted = await partner.client.delete(`/config/hpp-page/merchants/${merchantId}`);
    expect(deleted.status).toBe(204);
    expect((await partner.client.get(`/config/hpp-page?merchant_id=${merchantId}`)).body.source).toBe(
      'template',
    );
    expectProblem(
      await partner.client.delete(`/config/hpp-page/merchants/${merchantId}`),
      404,
      'hpp_page_config_not_found',
    );
  });

  it('refuses unsafe or malformed appearance values with 400 naming the field', async () => {
    const put = (appearance: unknown) =>
      partner.client.put(`/config/hpp-page/merchants/${merchantId}`, { appearance });
    expectValidationError(await put({ page: { bg: 'red; background:url(javascript:alert(1))' } }), [
      'appearance.page.bg',
    ]);
    expectValidationError(await put({ typography: { fontFamily: 'Comic Sans; </style>' } }), [
      'appearance.typography.fontFamily',
    ]);
    expectValidationError(await put({ header: { fontSize: 99 } }), ['appearance.header.fontSize']);
    expectValidationError(
      await put({
        logo: { mode: 'image', dataUrl: 'data:image/svg+xml;base64,PHN2Zz4=', fileName: 'x.svg' },
      }),
      ['appearance.logo.dataUrl'],
    );
    expectValidationError(await put({ surprise: true }), ['appearance.surprise']);
    expectValidationError(await partner.client.put('/config/hpp-page', { appearance: 'dark' }), [
      'appearance',
    ]);
    expectValidationError(await partner.client.put('/config/hpp-page', {}), ['appearance']);
  });

  it('embedding domains: replace, add, validation, and the limit', async () => {
    const path = `/config/hpp-page/merchants/${merchantId}/embedding-domains`;
    const replaced = await partner.client.put(path, { domains: ['Shop.Example.com', '*.partner.example'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      merchant_id: merchantId,
      embedding_domains: ['shop.example.com', '*.partner.example'],
    });
    const added = await partner.client.post(`${path}/add`, {
      domains: ['pay.example.org', 'shop.example.com'],
    });
    expect(added.status).toBe(200);
    expect(added.body.embedding_domains).toEqual([
      'shop.example.com',
      '*.partner.example',
      'pay.example.org',
    ]);
    expect(
      (await partner.client.get(`/config/hpp-page?merchant_id=${merchantId}`)).body.embedding_domains,
    ).toEqual(added.body.embedding_domains);
    expectValidationError(await partner.client.put(path, { domains: ['https://evil.example/x'] }), [
      'domains[0]',
    ]);
    expectValidationError(await partner.client.put(path, { domains: ['10.0.0.1'] }), ['domains[0]']);
    expectValidationError(await partner.client.put(path, { domains: 'a.example' }), ['domains']);
    const many = Array.from({ length: 18 }, (_, i) => `s${i}.example.net`);
    expectProblem(
      await partner.client.post(`${path}/add`, { domains: many }),
      422,
      'embedding_domains_limit',
    );
    expect((await partner.client.put(path, { domains: [] })).body.embedding_domains).toEqual([]);
  });

  it('keeps merchants to their partner and needs the hosted_payment_pages flag', async () => {
    const other = await platform().newPartner({ name: 'Other' });
    for (const id of [merchantId, randomUUID()]) {
      expectProblem(await other.client.get(`/config/hpp-page?merchant_id=${id}`), 404, 'merchant_not_found');
      expectProblem(
        await other.client.put(`/config/hpp-page/merchants/${id}`, { appearance: {} }),
        404,
        'merchant_not_found',
      );
      expectProblem(
        await other.client.put(`/config/hpp-page/merchants/${id}/embedding-domains`, { domains: [] }),
        404,
        'merchant_not_found',
      );
    }
    expectValidationError(await other.client.get('/config/hpp-page?merchant_id=nope'), ['merchant_id']);
    const off = await other.client.put('/config/feature-flags/me/hosted_payment_pages', { enabled: false });
    expect(off.status).toBe(200);
    expectProblem(await other.client.get('/config/hpp-page'), 403, 'feature_not_enabled');
  });
});
