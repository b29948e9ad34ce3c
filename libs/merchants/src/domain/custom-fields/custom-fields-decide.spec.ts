import { deciderSpec } from '../../../../../test/support/decider-spec';
import { normalizeFields } from './custom-field-definition';
import { CustomFieldsInvalid } from './custom-field-errors';
import type { CustomFieldsEvent } from './custom-field-events';
import { evolveCustomFields, initialCustomFieldsState, type CustomFieldsState } from './custom-fields';
import {
  PROVISIONING_ERROR_MAX_LENGTH,
  decideCustomFields,
  toCustomFieldConfiguration,
  type CustomFieldsCommand,
} from './custom-fields-decide';

const M = '0b6c2a8e-4a51-4c0e-9a8e-2f1f3e4b2a10';
const P = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');

const given = deciderSpec<CustomFieldsCommand, CustomFieldsState, CustomFieldsEvent>({
  decide: decideCustomFields,
  evolve: evolveCustomFields,
  initialState: initialCustomFieldsState,
});

const INPUT = [
  { name: 'InvoiceRef', isRequired: true },
  { name: 'Qty', isNumeric: true },
];
const FIELDS = normalizeFields(INPUT);

const configure = (fields: unknown, at = T1): CustomFieldsCommand => ({
  type: 'ConfigureCustomFields',
  merchantId: M,
  partnerId: P,
  fields,
  at,
});
const clear: CustomFieldsCommand = { type: 'ClearCustomFields', merchantId: M, partnerId: P, at: T1 };
const markProvisioned = (version: number): CustomFieldsCommand => ({
  type: 'MarkCustomFieldsProvisioned',
  merchantId: M,
  version,
  at: T1,
});
const markFailed = (version: number, error = 'gateway said no'): CustomFieldsCommand => ({
  type: 'MarkCustomFieldsProvisioningFailed',
  merchantId: M,
  version,
  error,
  at: T1,
});

const configured = (configVersion: number, fields = FIELDS, at = T1): CustomFieldsEvent => ({
  type: 'CustomFieldsConfigured',
  data: { merchantId: M, partnerId: P, fields, configVersion, configuredAt: at.toISOString() },
});
const cleared = (configVersion: number): CustomFieldsEvent => ({
  type: 'CustomFieldsCleared',
  data: { merchantId: M, partnerId: P, configVersion, clearedAt: T1.toISOString() },
});
const provisioned = (provisionedVersion: number): CustomFieldsEvent => ({
  type: 'CustomFieldsProvisioned',
  data: { merchantId: M, provisionedVersion, provisionedAt: T1.toISOString() },
});
const failed = (configVersion: number, error = 'gateway said no'): CustomFieldsEvent => ({
  type: 'CustomFieldsProvisioningFailed',
  data: { merchantId: M, configVersion, error, failedAt: T1.toISOString() },
});

describe('configuring custom fields (PUT)', () => {
  it('records the normalised set as version 1', () =>
    given([])
      .when(configure(INPUT))
      .then([configured(1)]));

  it('counts versions on', () =>
    given([configured(1, FIELDS, T0), provisioned(1)])
      .when(configure([{ name: 'Other' }]))
      .then([configured(2, normalizeFields([{ name: 'Other' }]))]));

  it('records nothing for the same set', () =>
    given([configured(1)])
      .when(configure(INPUT))
      .then([]));

  it('records nothing for the same set with the defaults spelled out', () =>
    given([configured(1)])
      .when(
        configure([
          { ...INPUT[0], isEnabled: true, maxLength: 255 },
          { ...INPUT[1], decimalPlaces: 0 },
        ]),
      )
      .then([]));

  it('records nothing for the same set sent in another order with the same positions', () => {
    const positioned = [
      { name: 'a', position: 1 },
      { name: 'b', position: 2 },
    ];
    return given([configured(1, normalizeFields(positioned))])
      .when(configure([...positioned].reverse()))
      .then([]);
  });

  it('records a reordering without positions (array order is the position)', () =>
    given([configured(1)])
      .when(configure([...INPUT].reverse()))
      .then([configured(2, normalizeFields([...INPUT].reverse()))]));

  it('records a new set after a clear', () =>
    given([configured(1), cleared(2)])
      .when(configure(INPUT))
      .then([configured(3)]));

  it.each([[undefined], [null], [[]]])('clears a configured set when fields is %p', (fields) =>
    given([configured(1)])
      .when(configure(fields))
      .then([cleared(2)]),
  );

  it.each([[undefined], [null], [[]]])('records nothing for %p when nothing is configured', (fields) =>
    given([]).when(configure(fields)).then([]),
  );

  it('records nothing for an empty set after a clear', () =>
    given([configured(1), cleared(2)])
      .when(configure([]))
      .then([]));

  it.each<[string, unknown, string[]]>([
    ['not an array', { name: 'a' }, ['fields']],
    ['eleven fields', Array.from({ length: 11 }, (_, i) => ({ name: `f${i}` })), ['fields']],
    ['a bad regEx', [{ name: 'a', regEx: '(' }], ['fields[0].regEx']],
    ['duplicate names', [{ name: 'a' }, { name: 'A' }], ['fields[1].name']],
  ])('refuses %s with validation_error naming each field', (_case, fields, paths) =>
    given([configured(1)])
      .when(configure(fields))
      .thenThrows(CustomFieldsInvalid, {
        code: 'validation_error',
        errors: paths.map((field) => ({ field, message: expect.any(String) })),
      }),
  );
});

describe('clearing custom fields (DELETE)', () => {
  it('clears a configured set', () =>
    given([configured(1)])
      .when(clear)
      .then([cleared(2)]));
  it('clears a set whose provisioning failed', () =>
    given([configured(1), failed(1)])
      .when(clear)
      .then([cleared(2)]));
  it('records nothing when never configured', () => given([]).when(clear).then([]));
  it('records nothing when already cleared', () =>
    given([configured(1), cleared(2)])
      .when(clear)
      .then([]));
});

describe('provisioning results', () => {
  it('records the current version provisioned', () =>
    given([configured(1)])
      .when(markProvisioned(1))
      .then([provisioned(1)]));

  it('records a clearing provisioned', () =>
    given([configured(1), provisioned(1), cleared(2)])
      .when(markProvisioned(2))
      .thenState((state) => expect(state.provisioning.status).toBe('UNPROVISIONED')));

  it('records a success after a failure', () =>
    given([configured(1), failed(1)])
      .when(markProvisioned(1))
      .then([provisioned(1)]));

  it.each<[string, CustomFieldsEvent[], number]>([
    ['an older version', [configured(1), configured(2)], 1],
    ['a future version', [configured(1)], 2],
    ['version 0 when never configured', [], 0],
    ['a version already provisioned', [configured(1), provisioned(1)], 1],
  ])('ignores a success for %s', (_case, history, version) =>
    given(history).when(markProvisioned(version)).then([]),
  );

  it('records a failure of the current version', () =>
    given([configured(1)])
      .when(markFailed(1))
      .then([failed(1)]));

  it('records a different failure of the same version', () =>
    given([configured(1), failed(1)])
      .when(markFailed(1, 'timeout'))
      .then([failed(1, 'timeout')]));

  it('trims the error, bounds it, and never leaves it empty', () => {
    given([configured(1)])
      .when(markFailed(1, '  timeout \n'))
      .then([failed(1, 'timeout')]);
    given([configured(1)])
      .when(markFailed(1, '   '))
      .then([failed(1, 'provisioning failed')]);
    given([configured(1)])
      .when(markFailed(1, 'x'.repeat(2000)))
      .then([failed(1, 'x'.repeat(PROVISIONING_ERROR_MAX_LENGTH))]);
  });

  it.each<[string, CustomFieldsEvent[], number]>([
    ['an older version', [configured(1), configured(2)], 1],
    ['a future version', [configured(1)], 2],
    ['version 0 when never configured', [], 0],
    ['a version already provisioned', [configured(1), provisioned(1)], 1],
    ['the same failure again', [configured(1), failed(1)], 1],
  ])('ignores a failure for %s', (_case, history, version) =>
    given(history).when(markFailed(version)).then([]),
  );
});

describe('the custom-field configuration resource', () => {
  const fold = (events: CustomFieldsEvent[]) => events.reduce(evolveCustomFields, initialCustomFieldsState());
  const merchant = { id: M, partnerId: P };

  it('answers for a merchant that never configured any field', () =>
    expect(toCustomFieldConfiguration(merchant, initialCustomFieldsState())).toEqual({
      id: M,
      partner_id: P,
      merchant_id: M,
      fields: [],
      version: 0,
      provisioning: { status: 'UNPROVISIONED', error: null, provisioned_version: 0 },
    }));

  it('shows the set, its version and the provisioning', () =>
    expect(
      toCustomFieldConfiguration(merchant, fold([configured(1), provisioned(1), configured(2), failed(2)])),
    ).toEqual({
      id: M,
      partner_id: P,
      merchant_id: M,
      fields: FIELDS,
      version: 2,
      provisioning: { status: 'FAILED', error: 'gateway said no', provisioned_version: 1 },
    }));

  it('takes the version it is given', () =>
    expect(toCustomFieldConfiguration(merchant, fold([configured(1)]), 7).version).toBe(7));

  it('has exactly the spec properties, field definitions in camelCase', () => {
    const resource = toCustomFieldConfiguration(merchant, fold([configured(1)]));
    expect(Object.keys(resource).sort()).toEqual([
      'fields',
      'id',
      'merchant_id',
      'partner_id',
      'provisioning',
      'version',
    ]);
    expect(Object.keys(resource.provisioning).sort()).toEqual(['error', 'provisioned_version', 'status']);
    expect(Object.keys(resource.fields[0]).sort()).toEqual(
      [
        'name',
        'description',
        'position',
        'isRequired',
        'isEnabled',
        'isNumeric',
        'decimalPlaces',
        'maxLength',
        'isMultiValue',
        'maxValues',
        'regEx',
        'regExErrorMessage',
        'numericMinValue',
        'numericMaxValue',
        'virtualTerminal',
        'hostedPaymentPage',
        'transactionReports',
      ].sort(),
    );
  });

  it('does not share objects with the state', () => {
    const state = fold([configured(1)]);
    toCustomFieldConfiguration(merchant, state).fields[0].virtualTerminal.visible = true;
    expect(state.fields[0].virtualTerminal.visible).toBe(false);
  });
});
