/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { useTestPlatform, type ApiClient, type ApiResponse, type TestPartner } from '../support/api';
import { activeMerchant, vaultedCredential } from '../support/payments';
import { expectValidationError } from '../support/problems';

/**
 * Every list reads its query string strictly, as `/transactions` does (spec Errors: a malformed
 * or blank filter value and an unknown enum value are 400; "the unfiltered list is never returned
 * instead"). For each list: a parameter it does not know, a malformed value and a blank value
 * each answer 400 `validation_error` naming the parameter, and the answer carries no list.
 * Each list is first read plainly, with rows in it, so a widened answer would show.
 */
describe('strict query strings on every list', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner, 'Query Bakery');
    const customer = await partner.client.post(`/merchants/${merchantId}/customers`, {
      email: 'payer@query.test',
    });
    const card = await vaultedCredential(platform(), partner, merchantId, { customerId: customer.body.id });
    const writes = [
      await partner.client.post('/transactions', {
        type: 'SALE',
        merchant_id: merchantId,
        amount: '12.00',
        currency: 'USD',
        vault_token: card.vaultToken,
        use_type: 'RECURRING',
      }),
      await partner.client.post(`/merchants/${merchantId}/compliance-documents`, {
        document_type: 'VOIDED_CHECK',
        file_name: 'check.pdf',
        content_type: 'application/pdf',
        content_base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
      }),
      await partner.client.put('/config/hpp-page', { appearance: { presetKey: 'dark' } }),
      await partner.client.put(`/config/custom-fields/merchants/${merchantId}`, {
        fields: [{ name: 'ref' }],
      }),
    ];
    for (const write of writes) expect(write.status).toBeLessThan(300);
  });

  type Caller = 'partner' | 'operator';
  /** [list, who reads it, path, [query string, the parameter the 400 must name][]]. */
  const LISTS: [string, Caller, () => string, [string, string][]][] = [
    [
      'GET /merchants',
      'partner',
      () => '/merchants',
      [
        ["merchant_id=' OR 1=1--", 'merchant_id'],
        ['amount_min=NaN', 'amount_min'],
        ['state=ACTIVE_ISH', 'state'],
        ['merchant_category_code=58a2', 'merchant_category_code'],
        ['state=', 'state'],
        ['merchant_category_code=%20', 'merchant_category_code'],
        ['state=DRAFT&state=LIVE', 'state'],
      ],
    ],
    [
      'GET /merchants/{id}/customers',
      'partner',
      () => `/merchants/${merchantId}/customers`,
      [
        ['email=payer%40query.test', 'email'],
        ['page_size=ten', 'page_size'],
        ['page_size=', 'page_size'],
      ],
    ],
    [
      'GET /merchants/{id}/stored-credentials',
      'partner',
      () => `/merchants/${merchantId}/stored-credentials`,
      [
        ['customer=any', 'customer'],
        ["customer_id=' OR 1=1--", 'customer_id'],
        ['state=active', 'state'],
        ['customer_id=', 'customer_id'],
        ['state=%09', 'state'],
      ],
    ],
    [
      'GET /merchants/{id}/compliance-documents',
      'partner',
      () => `/merchants/${merchantId}/compliance-documents`,
      [
        ['document_type=other', 'document_type'],
        ['page_size=0', 'page_size'],
        ['cursor=', 'cursor'],
      ],
    ],
    [
      'GET /transactions (the reference)',
      'partner',
      () => '/transactions',
      [
        ['merchant=x', 'merchant'],
        ["merchant_id=' OR 1=1--", 'merchant_id'],
        ['amount_min=', 'amount_min'],
      ],
    ],
    [
      'GET /config/hpp-page',
      'partner',
      () => '/config/hpp-page',
      [
        ['merchant=x', 'merchant'],
        ["merchant_id=' OR 1=1--", 'merchant_id'],
        ['merchant_id=', 'merchant_id'],
      ],
    ],
    ['GET /config/hpp-page/configs', 'partner', () => '/config/hpp-page/configs', unpagedCases()],
    ['GET /config/custom-fields/configs', 'partner', () => '/config/custom-fields/configs', unpagedCases()],
    ['GET /config/feature-flags/me', 'partner', () => '/config/feature-flags/me', unpagedCases()],
    ['GET /config/mcc-catalog', 'partner', () => '/config/mcc-catalog', unpagedCases()],
    ['GET /config/us-states', 'partner', () => '/config/us-states', unpagedCases()],
    ['GET /onboarding/saq-types', 'partner', () => '/onboarding/saq-types', unpagedCases()],
    [
      'GET /iam/partners/{id}/transitions',
      'partner',
      () => `/iam/partners/${partner.id}/transitions`,
      unpagedCases(),
    ],
    [
      'GET /platform/partners',
      'operator',
      () => '/platform/partners',
      [
        ['name=Acme', 'name'],
        ['page_size=1e1', 'page_size'],
        ['page_size=', 'page_size'],
      ],
    ],
    [
      'GET /platform/partners/{id}/api-keys',
      'operator',
      () => `/platform/partners/${partner.id}/api-keys`,
      unpagedCases(),
    ],
    [
      'GET /platform/streams/{name}/events',
      'operator',
      () => `/platform/streams/partner-${partner.id}/events`,
      [
        ['from=0', 'from'],
        ['limit=many', 'limit'],
        ['from_revision=-1', 'from_revision'],
        ['from_revision=', 'from_revision'],
        ['limit=1&limit=2', 'limit'],
        ['page_size=10', 'page_size'],
      ],
    ],
    ['GET /platform/projections', 'operator', () => '/platform/projections', unpagedCases()],
  ];

  /** Lists read whole (no filters, no pages): every parameter is unknown, page ones included. */
  function unpagedCases(): [string, string][] {
    return [
      ['merchant_id=x', 'merchant_id'],
      ['q=', 'q'],
      ['page_size=10', 'page_size'],
      ['cursor=abc', 'cursor'],
    ];
  }

  const client = (who: Caller): ApiClient => (who === 'operator' ? platform().operator : partner.client);
  const rowsOf = (res: ApiResponse): unknown[] =>
    Array.isArray(res.body) ? res.body : (res.body?.data ?? res.body?.fields ?? [res.body]);

  describe.each(LISTS)('%s', (_list, who, path, cases) => {
    it('answers the plain list, with rows in it', async () => {
      const res = await client(who).get(path());
      expect(res.status).toBe(200);
      expect(rowsOf(res).length).toBeGreaterThan(0);
    });

    it.each(cases)('?%s is 400 naming %s, never the unfiltered list', async (query, field) => {
      const res = await client(who).get(`${path()}?${query}`);
      expectValidationError(res, [field]);
      expect(res.body.data).toBeUndefined();
      expect(Array.isArray(res.body)).toBe(false);
    });
  });

  it('names every bad parameter of one request at once', async () => {
    const res = await partner.client.get('/merchants?state=&nope=1&merchant_category_code=x');
    expectValidationError(res, ['state', 'nope', 'merchant_category_code']);
  });

  it('still filters with good parameters', async () => {
    const res = await partner.client.get('/merchants?state=ACTIVE&merchant_category_code=5812&page_size=5');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.id)).toEqual([merchantId]);
  });
});
