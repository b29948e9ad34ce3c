/* eslint-disable @typescript-eslint/no-explicit-any -- request and response bodies are JSON built freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type ApiClient, type ApiResponse, type TestPartner } from '../support/api';
import { expectProblem } from '../support/problems';

/**
 * Issue 15, point 10: text fields refuse control characters and bidi controls. Every character
 * below is sent, in the middle of an otherwise good value, to every free-text field of every
 * write (and the free-text query parameters); each answer is 400 `validation_error` whose
 * `errors` name the field by its wire path. Multi-line messages take LF, and nothing else.
 */
const BAD: [string, string][] = [
  ['ESC', '\u001b'],
  ['BEL', '\u0007'],
  ['NUL', '\u0000'],
  ['CR', '\r'],
  ['LF', '\n'],
  ['TAB', '\t'],
  ['DEL', '\u007f'],
  ['C1 CSI', '\u009b'],
  ['RLO U+202E', '\u202e'],
  ['LRI U+2066', '\u2066'],
  ['RLM U+200F', '\u200f'],
  ['ALM U+061C', '\u061c'],
  ['LINE SEPARATOR', '\u2028'],
];

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');

type Who = 'partner' | 'operator';
interface Field {
  /** The wire path the 400 must name. */
  field: string;
  who: Who;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  path: () => string;
  /** A good body with `text` placed in the field (GET and DELETE: a query string). */
  body?: (text: string) => unknown;
  query?: (text: string) => string;
  multiline?: boolean;
}

describe('control and bidi characters in text fields', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let customerId: string;

  beforeAll(async () => {
    partner = await platform().newPartner();
    const merchant = await partner.client.post('/merchants', {
      business_name: 'Text Bakery',
      contact_email: 'owner@text.test',
      contact_name: 'Tex Baker',
      merchant_category_code: '5812',
    });
    merchantId = merchant.body.id;
    const customer = await partner.client.post(`/merchants/${merchantId}/customers`, {
      email: 'p@text.test',
    });
    customerId = customer.body.id;
  });

  const partnerBody = (over: Record<string, unknown> = {}, address: Record<string, unknown> = {}) => ({
    name: 'Acme Software',
    contact_email: 'dev@acme.test',
    contact_name: 'Ada Lovelace',
    dba: 'Acme',
    business_address: {
      address_line1: '1 Main St',
      address_line2: 'Suite 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
      ...address,
    },
    ...over,
  });
  const merchantBody = (over: Record<string, unknown> = {}) => ({
    business_name: 'Corner Bakery',
    contact_email: 'sam@bakery.test',
    contact_name: 'Sam Baker',
    merchant_category_code: '5812',
    authorized_signer_name: 'Sam Baker',
    authorized_signer_email: 'sam@bakery.test',
    ...over,
  });
  const customerBody = (over: Record<string, unknown> = {}, address: Record<string, unknown> = {}) => ({
    email: 'pat@payer.test',
    display_name: 'Pat Payer',
    phone: '+14155550123',
    address: {
      line1: '1 Main St',
      line2: 'Apt 1',
      city: 'San Francisco',
      state: 'CA',
      postal_code: '94107',
      country: 'US',
      ...address,
    },
    ...over,
  });
  const at = (value: string, text: string) => `${value.slice(0, 2)}${text}${value.slice(2)}`;

  const FIELDS: Field[] = [
    ...['name', 'contact_email', 'contact_name', 'dba'].map((key): Field => ({
      field: key,
      who: 'operator',
      method: 'POST',
      path: () => '/platform/partners',
      body: (t) => partnerBody({ [key]: at(String((partnerBody() as any)[key]), t) }),
    })),
    ...['address_line1', 'address_line2', 'city', 'state', 'zip'].map((key): Field => ({
      field: `business_address.${key}`,
      who: 'operator',
      method: 'POST',
      path: () => '/platform/partners',
      body: (t) => partnerBody({}, { [key]: at(String((partnerBody().business_address as any)[key]), t) }),
    })),
    ...[
      'business_name',
      'contact_email',
      'contact_name',
      'authorized_signer_name',
      'authorized_signer_email',
    ].map((key): Field => ({
      field: key,
      who: 'partner',
      method: 'POST',
      path: () => '/merchants',
      body: (t) => merchantBody({ [key]: at(String((merchantBody() as any)[key]), t) }),
    })),
    ...['business_name', 'contact_name'].map((key): Field => ({
      field: key,
      who: 'partner',
      method: 'PATCH',
      path: () => `/merchants/${merchantId}`,
      body: (t) => ({ [key]: `Renamed${t}Name` }),
    })),
    ...['email', 'display_name', 'phone'].map((key): Field => ({
      field: key,
      who: 'partner',
      method: 'POST',
      path: () => `/merchants/${merchantId}/customers`,
      body: (t) => customerBody({ [key]: at(String((customerBody() as any)[key]), t) }),
    })),
    ...['line1', 'line2', 'city', 'state', 'postal_code'].map((key): Field => ({
      field: `address.${key}`,
      who: 'partner',
      method: 'POST',
      path: () => `/merchants/${merchantId}/customers`,
      body: (t) => customerBody({}, { [key]: at(String((customerBody().address as any)[key]), t) }),
    })),
    {
      field: 'display_name',
      who: 'partner',
      method: 'PATCH',
      path: () => `/merchants/${merchantId}/customers/${customerId}`,
      body: (t) => ({ display_name: `Pat${t}Payer` }),
    },
    {
      field: 'file_name',
      who: 'partner',
      method: 'POST',
      path: () => `/merchants/${merchantId}/compliance-documents`,
      body: (t) => ({
        document_type: 'VOIDED_CHECK',
        file_name: `invoice${t}fdp.pdf`,
        content_type: 'application/pdf',
        content_base64: PDF,
      }),
    },
    {
      field: 'account_holder_name',
      who: 'partner',
      method: 'PUT',
      path: () => `/merchants/${merchantId}/bank-account`,
      body: (t) => ({
        routing_number: '011000015',
        account_number: '000123456789',
        account_type: 'CHECKING',
        account_holder_name: `Sam${t}Baker`,
      }),
    },
    ...['description', 'regExErrorMessage'].map((key): Field => ({
      field: `fields[0].${key}`,
      who: 'partner',
      method: 'PUT',
      path: () => `/config/custom-fields/merchants/${merchantId}`,
      body: (t) => ({
        fields: [
          {
            name: 'ref',
            regEx: '[A-Z]+',
            description: 'Ref',
            regExErrorMessage: 'A-Z',
            [key]: `Bad${t}Text`,
          },
        ],
      }),
    })),
    ...['name', 'value'].map((key): Field => ({
      field: `custom_fields[0].${key}`,
      who: 'partner',
      method: 'POST',
      path: () => '/hpp/sessions',
      body: (t) => ({
        merchant_id: merchantId,
        amount: '10.00',
        custom_fields: [{ name: 'ref', value: 'A1', [key]: `re${t}f` }],
      }),
    })),
    ...['name', 'value'].map((key): Field => ({
      field: `custom_fields[0].${key}`,
      who: 'partner',
      method: 'POST',
      path: () => '/transactions',
      body: (t) => ({
        type: 'SALE',
        merchant_id: merchantId,
        amount: '1.00',
        currency: 'USD',
        vault_token: `cvt_${'a'.repeat(24)}`,
        use_type: 'RECURRING',
        custom_fields: [{ name: 'ref', value: 'A1', [key]: `re${t}f` }],
      }),
    })),
    {
      field: 'reversal_reason.description',
      who: 'partner',
      method: 'POST',
      path: () => '/transactions',
      body: (t) => ({
        type: 'ACH_REVERSAL',
        merchant_id: merchantId,
        parent_transaction_id: randomUUID(),
        reversal_reason: { code: 'duplicate_entry', description: `sent${t}twice` },
      }),
    },
    {
      field: 'webhook_url',
      who: 'partner',
      method: 'PUT',
      path: () => `/config/partners/${partner.id}`,
      body: (t) => ({ webhook_url: `https://hooks.example.com/a${t}b` }),
    },
    {
      field: 'reason',
      who: 'partner',
      method: 'DELETE',
      path: () => `/merchants/${merchantId}/stored-credentials/${randomUUID()}`,
      query: (t) => `reason=${encodeURIComponent(`card${t}lost`)}`,
    },
    {
      field: 'q',
      who: 'partner',
      method: 'GET',
      path: () => '/transactions',
      query: (t) => `q=${encodeURIComponent(`abc${t}def`)}`,
    },
    {
      field: 'reason',
      who: 'operator',
      method: 'POST',
      path: () => `/platform/sandbox/transactions/${randomUUID()}/dispute`,
      body: (t) => ({ reason: `not${t}recognised` }),
    },
    ...['reason', 'clarification_message'].map((key): Field => ({
      field: key,
      who: 'operator',
      method: 'POST',
      path: () => `/platform/merchants/${merchantId}/transitions`,
      body: (t) => ({ action: 'request_clarification', [key]: `Please send${t}the form` }),
      multiline: true,
    })),
    {
      field: 'response',
      who: 'partner',
      method: 'POST',
      path: () => `/merchants/${merchantId}/respond-clarification`,
      body: (t) => ({ response: `Here it is${t}regards` }),
      multiline: true,
    },
    {
      field: 'message',
      who: 'partner',
      method: 'POST',
      path: () => `/merchants/${merchantId}/resubmit`,
      body: (t) => ({ message: `Fixed${t}everything` }),
      multiline: true,
    },
  ];

  const client = (who: Who): ApiClient => (who === 'operator' ? platform().operator : partner.client);
  const send = (f: Field, text: string): Promise<ApiResponse> => {
    const path = f.query ? `${f.path()}?${f.query(text)}` : f.path();
    return client(f.who).call(f.method, path, f.body ? { body: f.body(text) } : {});
  };
  const named = (res: ApiResponse): string[] =>
    (res.body?.errors ?? []).map((e: { field: string }) => e.field);

  const route = (f: Field) => f.path().replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}');
  const cases = FIELDS.flatMap((f) =>
    BAD.filter(([name]) => !(f.multiline && name === 'LF')).map(
      ([name, char]) => [`${f.method} ${f.field}`, name, f, char] as const,
    ),
  );

  it.each(cases)('%# %s refuses %s', async (_label, _name, f, char) => {
    const res = await send(f, char);
    expectProblem(res, 400, 'validation_error');
    expect({ route: `${f.method} ${route(f)}`, named: named(res) }).toEqual({
      route: `${f.method} ${route(f)}`,
      named: expect.arrayContaining([f.field]),
    });
    // Messages name the character by code point; they never carry it.
    for (const error of res.body.errors) expect(error.message.includes(char)).toBe(false);
  });

  it.each(FIELDS.filter((f) => f.multiline).map((f) => [f.field, f] as const))(
    'the multi-line %s takes LF',
    async (_field, f) => {
      const res = await send(f, '\n');
      expect(res.status === 400 ? named(res) : []).not.toContain(f.field);
    },
  );

  it('still takes accents, other scripts and emoji', async () => {
    const res = await partner.client.post(
      '/merchants',
      merchantBody({ business_name: 'Café Zoë — 東京 🥐', contact_name: 'محمد' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.business_name).toBe('Café Zoë — 東京 🥐');
  });
});
