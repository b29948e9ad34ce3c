import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { evolve, initialState, type Customer } from './customer';
import { CustomerInvalid, CustomerNotFound } from './customer-errors';
import type { CustomerAddress, CustomerEvent } from './customer-events';
import type { CustomerAddressInput } from './customer-rules';
import { decide, type CustomerCommand } from './decide';

const ID = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const ids = { customerId: ID, merchantId: MERCHANT, partnerId: PARTNER };
const given = deciderSpec({ decide, evolve, initialState });

const ADDRESS_INPUT: CustomerAddressInput = {
  line1: '1 Market St',
  line2: 'Suite 200',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  country: 'US',
};
const ADDRESS: CustomerAddress = { ...ADDRESS_INPUT, line2: 'Suite 200' };
const OTHER_ADDRESS_INPUT: CustomerAddressInput = {
  line1: '10 Downing St',
  city: 'London',
  state: 'Greater London',
  postalCode: 'SW1A 2AA',
  country: 'GB',
};
const OTHER_ADDRESS: CustomerAddress = { ...OTHER_ADDRESS_INPUT, line2: null };

const create = (
  fields: Partial<Extract<CustomerCommand, { type: 'CreateCustomer' }>> = {},
): CustomerCommand => ({
  type: 'CreateCustomer',
  customerId: ID,
  merchantId: MERCHANT,
  partnerId: PARTNER,
  email: 'ada@example.com',
  at: T0,
  ...fields,
});
const update = (fields: Partial<Extract<CustomerCommand, { type: 'UpdateCustomer' }>>): CustomerCommand => ({
  type: 'UpdateCustomer',
  customerId: ID,
  at: T1,
  ...fields,
});
const remove: CustomerCommand = { type: 'DeleteCustomer', customerId: ID, at: T1 };

/** A customer with every field set. */
const created = (): CustomerEvent => ({
  type: 'CustomerCreated',
  data: {
    ...ids,
    email: 'ada@example.com',
    displayName: 'Ada Lovelace',
    phone: '+14155550123',
    address: ADDRESS,
    createdAt: T0.toISOString(),
  },
});
const deleted = (): CustomerEvent => ({
  type: 'CustomerDeleted',
  data: { ...ids, deletedAt: T0.toISOString() },
});
const updated = (changes: Record<string, unknown>): CustomerEvent[] => [
  { type: 'CustomerUpdated', data: { ...ids, ...changes, updatedAt: T1.toISOString() } },
];

describe('CreateCustomer', () => {
  it('creates a customer with only an email', () =>
    given([])
      .when(create())
      .then([
        {
          type: 'CustomerCreated',
          data: {
            ...ids,
            email: 'ada@example.com',
            displayName: null,
            phone: null,
            address: null,
            createdAt: T0.toISOString(),
          },
        },
      ]));

  it('creates a customer with every field', () =>
    given([])
      .when(create({ displayName: '  Ada Lovelace ', phone: '+14155550123', address: ADDRESS_INPUT }))
      .then([created()]));

  it.each<[string, Partial<Extract<CustomerCommand, { type: 'CreateCustomer' }>>, Partial<Customer>]>([
    ['"" display_name is none', { displayName: '' }, { displayName: null }],
    ['null display_name is none', { displayName: null }, { displayName: null }],
    ['"" phone is none', { phone: '' }, { phone: null }],
    ['null address is none', { address: null }, { address: null }],
    ['an address without line2', { address: OTHER_ADDRESS_INPUT }, { address: OTHER_ADDRESS }],
  ])('%s', (_, fields, expected) =>
    given([])
      .when(create(fields))
      .thenState((customer) =>
        expect(customer).toMatchObject({ ...expected, version: 1, gatewayLinked: false, deleted: false }),
      ),
  );

  it.each<[string, Partial<Extract<CustomerCommand, { type: 'CreateCustomer' }>>, string]>([
    ['blank email', { email: ' ' }, 'email'],
    ['bad email', { email: 'nope' }, 'email'],
    ['1-character display_name', { displayName: 'A' }, 'display_name'],
    ['101-character display_name', { displayName: 'x'.repeat(101) }, 'display_name'],
    ['non-E.164 phone', { phone: '415-555-0123' }, 'phone'],
    ['incomplete address', { address: { ...ADDRESS_INPUT, city: '' } }, 'address.city'],
    ['bad country', { address: { ...ADDRESS_INPUT, country: 'USA' } }, 'address.country'],
  ])('refuses a %s (400 naming %s)', (_, fields, field) =>
    given([])
      .when(create(fields))
      .thenThrows(CustomerInvalid, {
        code: 'validation_error',
        errors: [{ field, message: expect.any(String) }],
      }),
  );

  it('names every broken field at once', () =>
    given([])
      .when(
        create({ email: '', displayName: 'A', phone: '123', address: { ...ADDRESS_INPUT, country: 'us' } }),
      )
      .thenThrows(CustomerInvalid, {
        errors: [
          { field: 'email', message: 'must not be blank' },
          { field: 'display_name', message: 'must be 2 to 100 characters' },
          { field: 'phone', message: expect.stringMatching(/E\.164/) },
          { field: 'address.country', message: expect.any(String) },
          // Without a valid country the state and postal code are checked as any country's.
        ],
      }));

  it('refuses to create over an existing customer (409)', () =>
    given([created()])
      .when(create())
      .thenThrows(InvalidStateTransition, { aggregate: 'customer', action: 'create' }));
});

describe('UpdateCustomer: omitted or null fields are unchanged', () => {
  it.each<[string, Partial<Extract<CustomerCommand, { type: 'UpdateCustomer' }>>]>([
    ['nothing', {}],
    ['all null', { email: null, displayName: null, phone: null, address: null, clearAddress: null }],
    [
      'the same values again',
      { email: 'ada@example.com', displayName: 'Ada Lovelace', phone: '+14155550123' },
    ],
    ['the same display_name with spaces around it', { displayName: ' Ada Lovelace ' }],
    ['the same address again', { address: ADDRESS_INPUT }],
    ['clear_address false', { clearAddress: false }],
  ])('%s records nothing', (_, fields) => given([created()]).when(update(fields)).then([]));

  it('clearing an address that is not there records nothing', () =>
    given([created(), ...updated({ address: null })])
      .when(update({ clearAddress: true }))
      .then([]));
});

describe('UpdateCustomer: changes', () => {
  it.each<[string, Partial<Extract<CustomerCommand, { type: 'UpdateCustomer' }>>, Record<string, unknown>]>([
    ['a new email', { email: 'ada@lovelace.test' }, { email: 'ada@lovelace.test' }],
    ['a new display_name (trimmed)', { displayName: ' Countess ' }, { displayName: 'Countess' }],
    ['"" clears display_name', { displayName: '' }, { displayName: null }],
    ['a blank display_name clears it', { displayName: '   ' }, { displayName: null }],
    ['a new phone', { phone: '+442071838750' }, { phone: '+442071838750' }],
    ['"" clears phone', { phone: '' }, { phone: null }],
    ['address replaces it whole', { address: OTHER_ADDRESS_INPUT }, { address: OTHER_ADDRESS }],
    ['clear_address removes it', { clearAddress: true }, { address: null }],
    [
      'only the changed fields',
      { email: 'ada@example.com', displayName: 'Ada Lovelace', phone: '' },
      { phone: null },
    ],
  ])('%s', (_, fields, changes) => given([created()]).when(update(fields)).then(updated(changes)));

  it('the state follows the event, version counts events', () =>
    given([created()])
      .when(update({ phone: '', clearAddress: true }))
      .thenState((customer) =>
        expect(customer).toMatchObject({
          email: 'ada@example.com',
          displayName: 'Ada Lovelace',
          phone: null,
          address: null,
          version: 2,
        }),
      ));

  it.each<[string, Partial<Extract<CustomerCommand, { type: 'UpdateCustomer' }>>, string]>([
    ['"" email', { email: '' }, 'email'],
    ['blank email', { email: '  ' }, 'email'],
    ['bad email', { email: 'ada@' }, 'email'],
    ['1-character display_name', { displayName: 'A' }, 'display_name'],
    ['101-character display_name', { displayName: 'x'.repeat(101) }, 'display_name'],
    ['non-E.164 phone', { phone: '4155550123' }, 'phone'],
    ['blank phone (only "" clears)', { phone: ' ' }, 'phone'],
    ['incomplete address', { address: { ...ADDRESS_INPUT, line1: '' } }, 'address.line1'],
    [
      'US address with a bad ZIP',
      { address: { ...ADDRESS_INPUT, postalCode: 'ABCDE' } },
      'address.postal_code',
    ],
    [
      'address with clear_address true',
      { address: OTHER_ADDRESS_INPUT, clearAddress: true },
      'clear_address',
    ],
    [
      'address with clear_address false',
      { address: OTHER_ADDRESS_INPUT, clearAddress: false },
      'clear_address',
    ],
  ])('refuses a %s (400 naming %s)', (_, fields, field) =>
    given([created()])
      .when(update(fields))
      .thenThrows(CustomerInvalid, { errors: [{ field, message: expect.any(String) }] }),
  );

  it('changes nothing when any field is refused', () =>
    given([created()])
      .when(update({ email: 'new@example.com', phone: 'bad' }))
      .thenThrows(CustomerInvalid, { errors: [{ field: 'phone', message: expect.any(String) }] }));
});

describe('DeleteCustomer', () => {
  it('soft-deletes: an event, the state keeps the customer marked deleted', () =>
    given([created()])
      .when(remove)
      .thenState((customer, events) => {
        expect(events).toEqual(
          [deleted()].map((e) => ({ ...e, data: { ...e.data, deletedAt: T1.toISOString() } })),
        );
        expect(customer).toMatchObject({ deleted: true, deletedAt: T1.toISOString(), version: 2 });
      }));
});

describe('a missing or deleted customer reads as absent to every command (404)', () => {
  const commands: [string, CustomerCommand][] = [
    ['UpdateCustomer', update({ email: 'x@example.com' })],
    ['UpdateCustomer with nothing to change', update({})],
    ['DeleteCustomer', remove],
  ];

  it.each(commands)('%s on no customer', (_, command) =>
    given([]).when(command).thenThrows(CustomerNotFound, { code: 'customer_not_found', customerId: ID }),
  );

  it.each([...commands, ['CreateCustomer', create()] as [string, CustomerCommand]])(
    '%s on a deleted customer',
    (_, command) =>
      given([created(), deleted()])
        .when(command)
        .thenThrows(CustomerNotFound, { code: 'customer_not_found', customerId: ID }),
  );

  it('the 404 comes before any field rule', () =>
    given([created(), deleted()])
      .when(update({ email: '' }))
      .thenThrows(CustomerNotFound));
});

describe('evolve', () => {
  it('ignores events before a CustomerCreated (events are facts, evolve never throws)', () => {
    expect(evolve(null, deleted())).toBeNull();
    expect(evolve(null, updated({ email: 'x@example.com' })[0])).toBeNull();
  });

  it('applies only the fields an update carries', () => {
    const customer = evolve(evolve(null, created()), updated({ displayName: null })[0]) as Customer;
    expect(customer).toMatchObject({
      email: 'ada@example.com',
      displayName: null,
      phone: '+14155550123',
      address: ADDRESS,
      version: 2,
    });
  });
});

describe('gateway link (a stored credential of the customer is at the gateway)', () => {
  const CREDENTIAL = 'c9a7e3d1-2b4f-4e6a-8c0d-1f2e3a4b5c6d';
  const link: CustomerCommand = {
    type: 'LinkCustomerToGateway',
    customerId: ID,
    storedCredentialId: CREDENTIAL,
    at: T1,
  };
  const unlink: CustomerCommand = {
    type: 'UnlinkCustomerFromGateway',
    customerId: ID,
    storedCredentialId: CREDENTIAL,
    at: T1,
  };
  const linked = (): CustomerEvent => ({
    type: 'CustomerGatewayLinked',
    data: { ...ids, storedCredentialId: CREDENTIAL, linkedAt: T1.toISOString() },
  });
  const unlinked = (): CustomerEvent => ({
    type: 'CustomerGatewayUnlinked',
    data: { ...ids, storedCredentialId: CREDENTIAL, unlinkedAt: T1.toISOString() },
  });

  it('links a customer that was not linked', () => given([created()]).when(link).then([linked()]));
  it('records nothing when it is linked already (a second payment method)', () =>
    given([created(), linked()]).when(link).then([]));
  it('unlinks a linked customer', () => given([created(), linked()]).when(unlink).then([unlinked()]));
  it('records nothing when it is not linked', () => given([created()]).when(unlink).then([]));
  it('refuses a deleted customer as absent', () =>
    given([created(), deleted()]).when(link).thenThrows(CustomerNotFound, { code: 'customer_not_found' }));
  it('evolve: gateway_linked follows the events', () => {
    const after = [linked(), unlinked(), linked()].reduce(
      (c, e) => evolve(c, e),
      evolve(null, created()),
    ) as Customer;
    expect(after).toMatchObject({ gatewayLinked: true, version: 4 });
  });
});
