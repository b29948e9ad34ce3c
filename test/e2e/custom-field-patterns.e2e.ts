/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import type { NewEvent } from '../../libs/event-store/src';
import { normalizeFields } from '../../libs/merchants/src/domain/custom-fields/custom-field-definition';
import type { CustomFieldsEvent } from '../../libs/merchants/src/domain/custom-fields/custom-field-events';
import { merchantStream } from '../../libs/merchants/src/domain/merchant-stream';
import { useTestPlatform, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import { activeMerchant, vaultedCredential } from '../support/payments';
import { expectProblem, expectValidationError } from '../support/problems';

/**
 * Issue 15, point 11: partner regular expressions cannot stall the service. A custom-field
 * `regEx` is proven linear at configuration (400 naming `fields[i].regEx` otherwise), and values
 * are matched at run time by a matcher that cannot backtrack, so even a hostile pattern stored
 * before the rule, met by a hostile 1,000-character value, answers at once.
 */
const REDOS_FAMILIES = [
  '(a+)+$',
  '(a|a)*$',
  '(a|aa)+$',
  '\\d*\\d*\\d*\\d*x',
  '(.*a){12}',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
];

describe('custom-field patterns', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  const path = () => `/config/custom-fields/merchants/${merchantId}`;

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner, 'Pattern Bakery');
  });

  it.each(REDOS_FAMILIES)('refuses %s at configuration: 400 naming fields[i].regEx', async (regEx) => {
    const res = await partner.client.put(path(), {
      fields: [
        { name: 'ok', regEx: '^[A-Z]{3}$' },
        { name: 'ref', regEx },
      ],
    });
    expectValidationError(res, ['fields[1].regEx']);
    expect(res.body.errors[0].message).toMatch(/linear/);
  });

  it.each([
    ['(a)\\1', 'a backreference'],
    ['(?=\\d)\\w+', 'a lookahead'],
    ['(?<=x)y', 'a lookbehind'],
  ])('refuses %s (%s): the run-time matcher cannot run it', async (regEx) => {
    const res = await partner.client.put(path(), { fields: [{ name: 'ref', regEx }] });
    expectValidationError(res, ['fields[0].regEx']);
    expect(res.body.errors[0].message).toMatch(/backreferences|lookahead|lookbehind/);
  });

  it('takes ordinary patterns, and checks values against them (whole value)', async () => {
    const put = await partner.client.put(path(), {
      fields: [{ name: 'invoice', regEx: '^INV-[0-9]{1,8}$', regExErrorMessage: 'use INV-123' }],
    });
    expect(put.status).toBe(200);
    const token = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    const sale = (value: string) =>
      partner.client.post('/transactions', {
        type: 'SALE',
        merchant_id: merchantId,
        amount: '5.00',
        currency: 'USD',
        vault_token: token,
        use_type: 'RECURRING',
        custom_fields: [{ name: 'invoice', value }],
      });
    expect((await sale('INV-42')).status).toBe(200);
    // The configuration's rules on a SALE are 422 custom_fields_invalid (payments.ts).
    const refused = await sale('INV-42x');
    expectProblem(refused, 422, 'custom_fields_invalid', {
      errors: [{ field: 'custom_fields[0].value', message: 'use INV-123' }],
    });
  });

  it('matches a hostile value against a hostile pattern stored before the rule at once, and still reads it', async () => {
    const legacy = await activeMerchant(platform().operator, partner, 'Legacy Bakery');
    const { eventStore } = platform().service.infra;
    const configured: CustomFieldsEvent = {
      type: 'CustomFieldsConfigured',
      data: {
        merchantId: legacy,
        partnerId: partner.id,
        fields: normalizeFields(
          REDOS_FAMILIES.map((regEx, i) => ({ name: `f${i}`, regEx, maxLength: 1000 })),
        ),
        configVersion: 1,
        configuredAt: new Date().toISOString(),
      },
    };
    await eventStore.appendToStream(merchantStream(legacy), [configured as NewEvent], {
      expectedRevision: 'stream_exists',
      metadata: testMetadata({ partner_id: partner.id }),
    });

    const read = await partner.client.get(`/config/custom-fields/merchants/${legacy}`);
    expect(read.status).toBe(200);
    expect(read.body.fields.map((f: any) => f.regEx)).toEqual(REDOS_FAMILIES);

    const token = (await vaultedCredential(platform(), partner, legacy)).vaultToken;
    const hostile = [
      'a'.repeat(999) + '!',
      'a'.repeat(999) + '!',
      'a'.repeat(999) + '!',
      '1'.repeat(1000),
      'b'.repeat(1000),
      'a'.repeat(1000),
    ];
    const started = Date.now();
    const res = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: legacy,
      amount: '5.00',
      currency: 'USD',
      vault_token: token,
      use_type: 'RECURRING',
      custom_fields: hostile.map((value, i) => ({ name: `f${i}`, value })),
    });
    // A backtracking engine spends minutes to forever here; the linear matcher, milliseconds.
    // The bound is generous (a shared, slow machine) and only says "not stalled".
    expect(Date.now() - started).toBeLessThan(5_000);
    expectProblem(res, 422, 'custom_fields_invalid');
    expect(res.body.errors.map((e: any) => e.field)).toEqual(
      hostile.map((_, i) => `custom_fields[${i}].value`),
    );
  });
});
