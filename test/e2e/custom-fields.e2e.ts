/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError } from '../support/problems';

describe('custom-field configuration', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  const path = () => `/config/custom-fields/merchants/${merchantId}`;
  beforeAll(async () => {
    partner = await platform().newPartner();
    const merchant = await partner.client.post('/merchants', {
      business_name: 'Fields Inc',
      contact_email: 'a@fields.test',
      contact_name: 'Fi',
      merchant_category_code: '5812',
    });
    merchantId = merchant.body.id;
  });

  it('a merchant without configuration answers an empty, unprovisioned set', async () => {
    const res = await partner.client.get(path());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: merchantId,
      partner_id: partner.id,
      merchant_id: merchantId,
      fields: [],
      version: 0,
      provisioning: { status: 'UNPROVISIONED', error: null, provisioned_version: 0 },
    });
    expect((await partner.client.get('/config/custom-fields/configs')).body).toEqual([]);
  });

  it('PUT replaces the set with defaults applied, the gateway provisions it, DELETE clears it', async () => {
    const put = await partner.client.put(path(), {
      fields: [
        {
          name: 'invoice_ref',
          description: 'Invoice',
          isRequired: true,
          maxLength: 20,
          regEx: '^INV-[0-9]+$',
        },
        { name: 'units', isNumeric: true, decimalPlaces: 2, numericMinValue: 0, numericMaxValue: 1000 },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      version: 1,
      provisioning: { status: 'PROVISIONED', error: null, provisioned_version: 1 },
    });
    expect(put.body.fields[0]).toMatchObject({
      name: 'invoice_ref',
      position: 1,
      isRequired: true,
      isEnabled: true,
      isNumeric: false,
      isMultiValue: false,
      virtualTerminal: { visible: false, readOnly: false },
      hostedPaymentPage: { visible: false, readOnly: false },
      transactionReports: { visible: false, readOnly: false },
    });
    expect(put.body.fields[1]).toMatchObject({
      name: 'units',
      position: 2,
      isNumeric: true,
      decimalPlaces: 2,
    });
    expect((await partner.client.get(path())).body).toEqual(put.body);
    expect((await partner.client.get('/config/custom-fields/configs')).body).toEqual([put.body]);

    const stream = await platform().operator.get(`/platform/streams/merchant-${merchantId}/events`);
    const types = stream.body.data.map((e: any) => e.type);
    expect(types.slice(-2)).toEqual(['CustomFieldsConfigured', 'CustomFieldsProvisioned']);
    expect(stream.body.data.at(-1).metadata.actor).toBe('system:gateway');

    const deleted = await partner.client.delete(path());
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await partner.client.get(path())).body).toMatchObject({
      fields: [],
      version: 2,
      provisioning: { status: 'UNPROVISIONED' },
    });
  });

  it('refuses invalid definitions with 400 naming each field', async () => {
    const fields = (list: unknown) => partner.client.put(path(), { fields: list });
    expectValidationError(await fields(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}` }))), [
      'fields',
    ]);
    expectValidationError(await fields([{ name: 'a' }, { name: 'A' }]), ['fields[1].name']);
    expectValidationError(await fields([{ name: 'a', regEx: '([' }]), ['fields[0].regEx']);
    expectValidationError(
      await fields([{ name: 'a', isNumeric: true, numericMinValue: 10, numericMaxValue: 1 }]),
      ['fields[0].numericMaxValue'],
    );
    expectValidationError(await fields([{ name: 'a', surprise: 1 }]), ['fields[0].surprise']);
    expectValidationError(await fields('a'), ['fields']);
  });

  it('keeps merchants to their partner, enforces scopes and the custom_fields flag', async () => {
    const other = await platform().newPartner({ name: 'Other' });
    for (const id of [merchantId, randomUUID()]) {
      expectProblem(
        await other.client.get(`/config/custom-fields/merchants/${id}`),
        404,
        'merchant_not_found',
      );
      expectProblem(
        await other.client.put(`/config/custom-fields/merchants/${id}`, { fields: [] }),
        404,
        'merchant_not_found',
      );
      expectProblem(
        await other.client.delete(`/config/custom-fields/merchants/${id}`),
        404,
        'merchant_not_found',
      );
    }
    const readOnly = await platform().newPartner({ scopes: ['custom_fields:config:read'] });
    expectProblem(
      await readOnly.client.put(`/config/custom-fields/merchants/${randomUUID()}`, {}),
      403,
      'unauthorized',
    );
    const noScope = await platform().newPartner({ scopes: ['partner:read'] });
    expectProblem(await noScope.client.get('/config/custom-fields/configs'), 403, 'unauthorized');

    const off = await partner.client.put('/config/feature-flags/me/custom_fields', { enabled: false });
    expect(off.status).toBe(200);
    expectProblem(await partner.client.get(path()), 403, 'feature_not_enabled');
  });
});
