import { stateAfter } from '../../../../test/support/decider-spec';
import { evolve, initialState, type Customer, type CustomerStateOrNone } from './customer';
import type { CustomerEvent } from './customer-events';
import { toCustomerResource } from './customer-resource';
import { decide, type CustomerCommand } from './decide';

/** The spec's Customer resource, in its order. */
const SPEC_FIELDS = [
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
const SPEC_ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'];

const ID = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');

const run = (commands: CustomerCommand[]): Customer =>
  stateAfter<CustomerCommand, CustomerStateOrNone, CustomerEvent>(
    { decide, evolve, initialState },
    commands,
  ) as Customer;

const full = run([
  {
    type: 'CreateCustomer',
    customerId: ID,
    merchantId: MERCHANT,
    partnerId: PARTNER,
    email: 'ada@example.com',
    displayName: 'Ada Lovelace',
    phone: '+14155550123',
    address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    at: T0,
  },
  { type: 'UpdateCustomer', customerId: ID, phone: '+442071838750', at: T0 },
]);

describe('toCustomerResource', () => {
  it('has exactly the spec fields, the address too', () => {
    const resource = toCustomerResource(full);
    expect(Object.keys(resource).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(Object.keys(resource.address ?? {}).sort()).toEqual([...SPEC_ADDRESS_FIELDS].sort());
  });

  it('maps every value', () =>
    expect(toCustomerResource(full)).toEqual({
      id: ID,
      merchant_id: MERCHANT,
      partner_id: PARTNER,
      email: 'ada@example.com',
      display_name: 'Ada Lovelace',
      phone: '+442071838750',
      gateway_linked: false,
      address: {
        line1: '1 Market St',
        line2: null,
        city: 'San Francisco',
        state: 'CA',
        postal_code: '94105',
        country: 'US',
      },
      created_at: T0.toISOString(),
      version: 2,
    }));

  it('unset fields are null, the address too', () =>
    expect(
      toCustomerResource(
        run([
          {
            type: 'CreateCustomer',
            customerId: ID,
            merchantId: MERCHANT,
            partnerId: PARTNER,
            email: 'b@example.com',
            at: T0,
          },
        ]),
      ),
    ).toMatchObject({ display_name: null, phone: null, address: null, gateway_linked: false, version: 1 }));

  it('is plain JSON (it survives a round trip unchanged)', () =>
    expect(JSON.parse(JSON.stringify(toCustomerResource(full)))).toEqual(toCustomerResource(full)));
});
