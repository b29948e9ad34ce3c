/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const CUSTOMER_FIELDS = [
  'id',
  'merchant_id',
  'partner_id',
  'email',
  'display_name',
  'phone',
  'gateway_linked',
  'address',
  'created_at',
  'version',
];

const ADDRESS = {
  line1: '1 Market St',
  line2: 'Suite 200',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
};
const UK_ADDRESS = {
  line1: '10 Downing St',
  city: 'London',
  state: 'Greater London',
  postal_code: 'SW1A 2AA',
  country: 'GB',
};

describe('customers: a merchant’s customers through the partner API', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;

  const newMerchant = async (p: TestPartner): Promise<string> => {
    const res = await p.client.post('/merchants', {
      business_name: 'Blue Bottle Cafe',
      contact_email: 'owner@bluebottle.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const path = (merchant: string, customer?: string) =>
    `/merchants/${merchant}/customers${customer ? `/${customer}` : ''}`;
  const create = (body: Record<string, unknown> = {}, p = partner, merchant = merchantId) =>
    p.client.post(path(merchant), { email: 'ada@example.com', ...body });

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await newMerchant(partner);
  });

  it('creates a customer with every field (201), and reads it back', async () => {
    const res = await create({ display_name: 'Ada Lovelace', phone: '+14155550123', address: ADDRESS });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...CUSTOMER_FIELDS].sort());
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      merchant_id: merchantId,
      partner_id: partner.id,
      email: 'ada@example.com',
      display_name: 'Ada Lovelace',
      phone: '+14155550123',
      gateway_linked: false,
      address: ADDRESS,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 1,
    });
    const read = await partner.client.get(path(merchantId, res.body.id));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('creates a customer with only an email: the rest reads null', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ display_name: null, phone: null, address: null, gateway_linked: false });
    const noLine2 = await create({ address: UK_ADDRESS });
    expect(noLine2.body.address).toEqual({ ...UK_ADDRESS, line2: null });
  });

  it('refuses bad bodies with 400 naming each field', async () => {
    expectValidationError(await partner.client.post(path(merchantId), {}), ['email']);
    expectValidationError(await partner.client.post(path(merchantId), { display_name: 'Ada' }), ['email']);
    expectValidationError(await create({ email: null }), ['email']);
    expectValidationError(await create({ email: '' }), ['email']);
    expectValidationError(await create({ email: 'nope' }), ['email']);
    expectValidationError(await create({ email: 42 }), ['email']);
    expectValidationError(await create({ phone: '415-555-0123' }), ['phone']);
    expectValidationError(await create({ phone: '+1 415 555 0123' }), ['phone']);
    expectValidationError(await create({ phone: 14155550123 }), ['phone']);
    expectValidationError(await create({ display_name: 'A' }), ['display_name']);
    expectValidationError(await create({ display_name: 'x'.repeat(101) }), ['display_name']);
    expectValidationError(await create({ address: 'somewhere' }), ['address']);
    expectValidationError(await create({ address: {} }), [
      'address.line1',
      'address.city',
      'address.state',
      'address.postal_code',
      'address.country',
    ]);
    expectValidationError(await create({ address: { ...ADDRESS, city: ' ' } }), ['address.city']);
    expectValidationError(await create({ address: { ...ADDRESS, country: 'USA' } }), ['address.country']);
    expectValidationError(await create({ address: { ...ADDRESS, country: 'us' } }), ['address.country']);
    expectValidationError(await create({ address: { ...ADDRESS, state: 'California' } }), ['address.state']);
    expectValidationError(await create({ address: { ...ADDRESS, postal_code: '941' } }), [
      'address.postal_code',
    ]);
    expectValidationError(await create({ address: { ...ADDRESS, zip: '94105' } }), ['address.zip']);
    expectValidationError(await create({ nickname: 'Ada' }), ['nickname']);
    expectValidationError(await create({ clear_address: true }), ['clear_address']);
    expectValidationError(await create({ gateway_linked: true }), ['gateway_linked']);
    // Several broken rules are named together.
    expectValidationError(await create({ email: 'nope', phone: '123', display_name: 'A' }), [
      'email',
      'phone',
      'display_name',
    ]);
    // Nothing was created by any of these.
    const fresh = await newMerchant(partner);
    expectValidationError(await create({ email: 'nope' }, partner, fresh), ['email']);
    expect((await partner.client.get(path(fresh))).body.pagination.total_count).toBe(0);
  });

  describe('PATCH', () => {
    let id: string;
    const patch = (body: unknown) => partner.client.patch(path(merchantId, id), body);

    beforeEach(async () => {
      const res = await create({ display_name: 'Ada Lovelace', phone: '+14155550123', address: ADDRESS });
      id = res.body.id;
    });

    it('omitted and null fields are unchanged (200, nothing recorded)', async () => {
      const before = (await partner.client.get(path(merchantId, id))).body;
      for (const body of [
        {},
        { email: null, display_name: null, phone: null, address: null, clear_address: null },
        { email: 'ada@example.com', display_name: 'Ada Lovelace' },
        { clear_address: false },
      ]) {
        const res = await patch(body);
        expect({ body, status: res.status, resource: res.body }).toEqual({
          body,
          status: 200,
          resource: before,
        });
      }
    });

    it('"" clears display_name and phone; a value sets them', async () => {
      const cleared = await patch({ display_name: '', phone: '' });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({
        email: 'ada@example.com',
        display_name: null,
        phone: null,
        address: ADDRESS,
        version: 2,
      });
      const set = await patch({ display_name: 'Countess', phone: '+442071838750' });
      expect(set.body).toMatchObject({ display_name: 'Countess', phone: '+442071838750', version: 3 });
      const onlyPhone = await patch({ phone: '' });
      expect(onlyPhone.body).toMatchObject({ display_name: 'Countess', phone: null, version: 4 });
      expect((await partner.client.get(path(merchantId, id))).body).toEqual(onlyPhone.body);
    });

    it('email: a new one replaces it; blank or malformed is 400', async () => {
      expect((await patch({ email: 'ada@lovelace.test' })).body.email).toBe('ada@lovelace.test');
      expectValidationError(await patch({ email: '' }), ['email']);
      expectValidationError(await patch({ email: '   ' }), ['email']);
      expectValidationError(await patch({ email: 'ada@' }), ['email']);
      expect((await partner.client.get(path(merchantId, id))).body.email).toBe('ada@lovelace.test');
    });

    it('display_name: 2 and 100 characters are fine, 1 and 101 are 400', async () => {
      expect((await patch({ display_name: 'Al' })).body.display_name).toBe('Al');
      expect((await patch({ display_name: 'x'.repeat(100) })).body.display_name).toBe('x'.repeat(100));
      expectValidationError(await patch({ display_name: 'A' }), ['display_name']);
      expectValidationError(await patch({ display_name: 'x'.repeat(101) }), ['display_name']);
      expectValidationError(await patch({ phone: '4155550123' }), ['phone']);
    });

    it('address replaces the whole address; clear_address removes it; both together are 400', async () => {
      const replaced = await patch({ address: UK_ADDRESS });
      expect(replaced.status).toBe(200);
      expect(replaced.body.address).toEqual({ ...UK_ADDRESS, line2: null });
      expectValidationError(await patch({ address: { line1: 'Only a line' } }), [
        'address.city',
        'address.state',
        'address.postal_code',
        'address.country',
      ]);
      expectValidationError(await patch({ address: ADDRESS, clear_address: true }), ['clear_address']);
      expectValidationError(await patch({ address: ADDRESS, clear_address: false }), ['clear_address']);
      expectValidationError(await patch({ clear_address: 'yes' }), ['clear_address']);
      expect((await partner.client.get(path(merchantId, id))).body.address).toEqual({
        ...UK_ADDRESS,
        line2: null,
      });
      const cleared = await patch({ clear_address: true });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ address: null, display_name: 'Ada Lovelace', version: 3 });
      expectValidationError(await patch({ nickname: 'x' }), ['nickname']);
    });
  });

  it('DELETE: 204 with an empty body; then 404 on read, not listed, PATCH and DELETE 404', async () => {
    const merchant = await newMerchant(partner);
    const { body: customer } = await create({}, partner, merchant);
    const kept = await create({ email: 'kept@example.com' }, partner, merchant);
    const deleted = await partner.client.delete(path(merchant, customer.id));
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expectProblem(await partner.client.get(path(merchant, customer.id)), 404, 'customer_not_found');
    const list = await partner.client.get(path(merchant));
    expect(list.body.data.map((c: any) => c.id)).toEqual([kept.body.id]);
    expect(list.body.pagination.total_count).toBe(1);
    expectProblem(
      await partner.client.patch(path(merchant, customer.id), { display_name: 'Back' }),
      404,
      'customer_not_found',
    );
    expectProblem(await partner.client.delete(path(merchant, customer.id)), 404, 'customer_not_found');
    expectProblem(await partner.client.get(path(merchant, randomUUID())), 404, 'customer_not_found');
    expectProblem(await partner.client.delete(path(merchant, randomUUID())), 404, 'customer_not_found');
  });

  it('lists newest first with pagination and total_count', async () => {
    const merchant = await newMerchant(partner);
    expect((await partner.client.get(path(merchant))).body).toEqual({
      data: [],
      pagination: { next_cursor: null, has_more: false, total_count: 0 },
    });
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      ids.push((await create({ email: `c${n}@example.com` }, partner, merchant)).body.id);
    }
    const first = await partner.client.get(`${path(merchant)}?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: any) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.pagination).toEqual({
      next_cursor: expect.any(String),
      has_more: true,
      total_count: 5,
    });
    expect(Object.keys(first.body.data[0]).sort()).toEqual([...CUSTOMER_FIELDS].sort());
    const second = await partner.client.get(
      `${path(merchant)}?page_size=2&cursor=${first.body.pagination.next_cursor}`,
    );
    expect(second.body.data.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
    const third = await partner.client.get(
      `${path(merchant)}?page_size=2&cursor=${second.body.pagination.next_cursor}`,
    );
    expect(third.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(third.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 5 });
    // A patched customer keeps its place; the list shows the change at once.
    await partner.client.patch(path(merchant, ids[4]), { display_name: 'Newest' });
    const again = await partner.client.get(`${path(merchant)}?page_size=1`);
    expect(again.body.data[0]).toMatchObject({ id: ids[4], display_name: 'Newest', version: 2 });
    // Cursors belong to one merchant's list; bad paging parameters are 400.
    const otherMerchant = await newMerchant(partner);
    expectValidationError(
      await partner.client.get(`${path(otherMerchant)}?cursor=${first.body.pagination.next_cursor}`),
      ['cursor'],
    );
    expectValidationError(await partner.client.get(`${path(merchant)}?page_size=0`), ['page_size']);
    expectValidationError(await partner.client.get(`${path(merchant)}?page_size=101`), ['page_size']);
    // Another merchant's list does not show them.
    expect((await partner.client.get(path(otherMerchant))).body.pagination.total_count).toBe(0);
  });

  it('scopes: customer:read reads and lists; every write needs customer:write (403)', async () => {
    const { body: customer } = await create();
    const reader = platform().as(
      (
        await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {
          scopes: ['customer:read'],
        })
      ).body.api_key,
    );
    expect((await reader.get(path(merchantId, customer.id))).status).toBe(200);
    expect((await reader.get(path(merchantId))).status).toBe(200);
    expectProblem(await reader.post(path(merchantId), { email: 'x@example.com' }), 403, 'unauthorized');
    expectProblem(await reader.patch(path(merchantId, customer.id), { phone: '' }), 403, 'unauthorized');
    expectProblem(await reader.delete(path(merchantId, customer.id)), 403, 'unauthorized');
    const writerOnly = platform().as(
      (
        await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {
          scopes: ['customer:write'],
        })
      ).body.api_key,
    );
    expectProblem(await writerOnly.get(path(merchantId, customer.id)), 403, 'unauthorized');
    expectProblem(await writerOnly.get(path(merchantId)), 403, 'unauthorized');
    expect((await partner.client.get(path(merchantId, customer.id))).body.version).toBe(1);
  });

  it('tenancy: another partner gets 404 merchant_not_found on every customer route', async () => {
    const { body: customer } = await create();
    const other = await platform().newPartner({ name: 'Other Software' });
    for (const res of [
      await other.client.get(path(merchantId)),
      await create({}, other),
      await other.client.get(path(merchantId, customer.id)),
      await other.client.patch(path(merchantId, customer.id), { display_name: 'Mine now' }),
      await other.client.delete(path(merchantId, customer.id)),
      await other.client.get(path(randomUUID())),
    ]) {
      expectProblem(res, 404, 'merchant_not_found');
    }
    // The other partner's own merchant does not reach this customer either.
    const theirs = await newMerchant(other);
    expectProblem(await other.client.get(path(theirs, customer.id)), 404, 'customer_not_found');
    expect((await partner.client.get(path(merchantId, customer.id))).body).toEqual(customer);
  });

  it('a customer id of another merchant of the same partner is 404 customer_not_found', async () => {
    const { body: customer } = await create();
    const sibling = await newMerchant(partner);
    expectProblem(await partner.client.get(path(sibling, customer.id)), 404, 'customer_not_found');
    expectProblem(
      await partner.client.patch(path(sibling, customer.id), { display_name: 'Moved' }),
      404,
      'customer_not_found',
    );
    expectProblem(await partner.client.delete(path(sibling, customer.id)), 404, 'customer_not_found');
    expect((await partner.client.get(path(merchantId, customer.id))).body).toEqual(customer);
  });

  it('malformed ids are 400', async () => {
    expectValidationError(await partner.client.get('/merchants/not-a-uuid/customers'), ['merchantId']);
    expectValidationError(await partner.client.get(path(merchantId, 'not-a-uuid')), ['customerId']);
  });

  it('an idempotent retry answers the same customer and creates it once', async () => {
    const merchant = await newMerchant(partner);
    const key = randomUUID();
    const first = await partner.client.post(
      path(merchant),
      { email: 'once@example.com' },
      { idempotencyKey: key },
    );
    const again = await partner.client.post(
      path(merchant),
      { email: 'once@example.com' },
      { idempotencyKey: key },
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await partner.client.get(path(merchant))).body.pagination.total_count).toBe(1);
  });

  it('the customer-list read model rebuilds from the events and agrees with the list before', async () => {
    const merchant = await newMerchant(partner);
    for (const n of [1, 2, 3]) await create({ email: `r${n}@example.com` }, partner, merchant);
    const gone = await create({ email: 'gone@example.com' }, partner, merchant);
    await partner.client.delete(path(merchant, gone.body.id));
    const before = await partner.client.get(path(merchant));
    expect(before.body.pagination.total_count).toBe(3);
    const rebuild = await platform().operator.post('/platform/projections/customer-list/rebuild');
    expect(rebuild.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let state = 'rebuilding';
    while (state === 'rebuilding' && Date.now() < deadline) {
      expect((await partner.client.get(path(merchant))).status).toBe(200);
      const status = await platform().operator.get('/platform/projections');
      state = status.body.data.find((p: any) => p.name === 'customer-list').state;
      if (state === 'rebuilding') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(state).toBe('running');
    expect((await partner.client.get(path(merchant))).body).toEqual(before.body);
  });

  it('records CustomerCreated, CustomerUpdated (changed fields only), CustomerDeleted on customer-{id}', async () => {
    const { body: customer } = await create({ display_name: 'Ada Lovelace', address: ADDRESS });
    await partner.client.patch(path(merchantId, customer.id), {
      display_name: 'Ada Lovelace',
      phone: '+14155550123',
    });
    await partner.client.patch(path(merchantId, customer.id), { clear_address: true });
    await partner.client.delete(path(merchantId, customer.id));
    const stream = await platform().operator.get(`/platform/streams/customer-${customer.id}/events`);
    expect(stream.status).toBe(200);
    const ids = { customerId: customer.id, merchantId, partnerId: partner.id };
    expect(stream.body.data.map((e: any) => ({ type: e.type, data: e.data }))).toEqual([
      {
        type: 'CustomerCreated',
        data: {
          ...ids,
          email: 'ada@example.com',
          displayName: 'Ada Lovelace',
          phone: null,
          address: {
            line1: '1 Market St',
            line2: 'Suite 200',
            city: 'San Francisco',
            state: 'CA',
            postalCode: '94105',
            country: 'US',
          },
          createdAt: customer.created_at,
        },
      },
      { type: 'CustomerUpdated', data: { ...ids, phone: '+14155550123', updatedAt: expect.any(String) } },
      { type: 'CustomerUpdated', data: { ...ids, address: null, updatedAt: expect.any(String) } },
      { type: 'CustomerDeleted', data: { ...ids, deletedAt: expect.any(String) } },
    ]);
    expect(stream.body.data.map((e: any) => e.revision)).toEqual([0, 1, 2, 3]);
    for (const [i, event] of stream.body.data.entries()) {
      expect(event.metadata).toMatchObject({
        actor: expect.stringMatching(/^partner-key:/),
        partner_id: partner.id,
        request_id: expect.any(String),
        // DELETE takes no Idempotency-Key.
        idempotency_key: i < 3 ? expect.any(String) : null,
      });
      expect(event.recorded_at).toMatch(ISO_TIMESTAMP);
    }
  });
});
