import { normalizeFields } from './custom-field-definition';
import {
  CUSTOM_FIELDS_EVENT_TYPES,
  isCustomFieldsEvent,
  type CustomFieldsEvent,
} from './custom-field-events';
import { evolveCustomFields, initialCustomFieldsState, type CustomFieldsState } from './custom-fields';

const M = '0b6c2a8e-4a51-4c0e-9a8e-2f1f3e4b2a10';
const P = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const FIELDS = normalizeFields([{ name: 'InvoiceRef' }]);

const configured = (configVersion: number, fields = FIELDS): CustomFieldsEvent => ({
  type: 'CustomFieldsConfigured',
  data: {
    merchantId: M,
    partnerId: P,
    fields,
    configVersion,
    configuredAt: `2026-11-0${configVersion}T10:00:00.000Z`,
  },
});
const cleared = (configVersion: number): CustomFieldsEvent => ({
  type: 'CustomFieldsCleared',
  data: { merchantId: M, partnerId: P, configVersion, clearedAt: '2026-11-09T10:00:00.000Z' },
});
const provisioned = (provisionedVersion: number): CustomFieldsEvent => ({
  type: 'CustomFieldsProvisioned',
  data: { merchantId: M, provisionedVersion, provisionedAt: '2026-11-10T10:00:00.000Z' },
});
const failed = (configVersion: number, error = 'gateway said no'): CustomFieldsEvent => ({
  type: 'CustomFieldsProvisioningFailed',
  data: { merchantId: M, configVersion, error, failedAt: '2026-11-10T10:00:00.000Z' },
});

const fold = (events: CustomFieldsEvent[]): CustomFieldsState =>
  events.reduce(evolveCustomFields, initialCustomFieldsState());

describe('the custom-field state', () => {
  it('starts never configured and unprovisioned', () =>
    expect(initialCustomFieldsState()).toEqual({
      fields: [],
      configVersion: 0,
      provisioning: { status: 'UNPROVISIONED', error: null, provisionedVersion: 0 },
      configuredAt: null,
    }));

  // [history, status, error, provisionedVersion, configVersion, field count]
  it.each<[string, CustomFieldsEvent[], string, string | null, number, number, number]>([
    ['configured', [configured(1)], 'PENDING', null, 0, 1, 1],
    ['configured, provisioned', [configured(1), provisioned(1)], 'PROVISIONED', null, 1, 1, 1],
    ['configured, failed', [configured(1), failed(1)], 'FAILED', 'gateway said no', 0, 1, 1],
    [
      'failed, then provisioned on retry',
      [configured(1), failed(1), provisioned(1)],
      'PROVISIONED',
      null,
      1,
      1,
      1,
    ],
    ['provisioned, reconfigured', [configured(1), provisioned(1), configured(2)], 'PENDING', null, 1, 2, 1],
    [
      'a late success of an older version',
      [configured(1), configured(2), provisioned(1)],
      'PENDING',
      null,
      1,
      2,
      1,
    ],
    [
      'a late failure of an older version',
      [configured(1), configured(2), failed(1)],
      'PENDING',
      null,
      0,
      2,
      1,
    ],
    ['failed, reconfigured', [configured(1), failed(1), configured(2)], 'PENDING', null, 0, 2, 1],
    ['cleared', [configured(1), provisioned(1), cleared(2)], 'PENDING', null, 1, 2, 0],
    [
      'cleared and provisioned',
      [configured(1), provisioned(1), cleared(2), provisioned(2)],
      'UNPROVISIONED',
      null,
      2,
      2,
      0,
    ],
    [
      'cleared, clearing failed',
      [configured(1), provisioned(1), cleared(2), failed(2)],
      'FAILED',
      'gateway said no',
      1,
      2,
      0,
    ],
    [
      'a success never goes backwards',
      [configured(1), configured(2), provisioned(2), provisioned(1)],
      'PROVISIONED',
      null,
      2,
      2,
      1,
    ],
  ])('%s', (_case, events, status, error, provisionedVersion, configVersion, count) => {
    const state = fold(events);
    expect(state.provisioning).toEqual({ status, error, provisionedVersion });
    expect(state.configVersion).toBe(configVersion);
    expect(state.fields).toHaveLength(count);
  });

  it('keeps the fields and the time of the last change', () => {
    const two = normalizeFields([{ name: 'a' }, { name: 'b' }]);
    const state = fold([configured(1), configured(2, two)]);
    expect(state.fields).toEqual(two);
    expect(state.configuredAt).toBe('2026-11-02T10:00:00.000Z');
    expect(fold([configured(1), cleared(2)]).configuredAt).toBe('2026-11-09T10:00:00.000Z');
  });

  it('does not share the event objects with the state', () => {
    const event = configured(1);
    const state = fold([event]);
    state.fields[0].hostedPaymentPage.visible = true;
    expect((event.data as { fields: typeof FIELDS }).fields[0].hostedPaymentPage.visible).toBe(false);
  });

  it('ignores events it does not know', () => {
    const state = fold([configured(1)]);
    const other = { type: 'MerchantSubmitted', data: {} } as unknown as CustomFieldsEvent;
    expect(evolveCustomFields(state, other)).toBe(state);
  });
});

describe('custom-field event types', () => {
  it('lists every event type once', () => {
    const all: Record<CustomFieldsEvent['type'], true> = {
      CustomFieldsConfigured: true,
      CustomFieldsCleared: true,
      CustomFieldsProvisioned: true,
      CustomFieldsProvisioningFailed: true,
    };
    expect([...CUSTOM_FIELDS_EVENT_TYPES].sort()).toEqual(Object.keys(all).sort());
  });

  it.each([
    ['CustomFieldsConfigured', true],
    ['CustomFieldsProvisioningFailed', true],
    ['MerchantSubmitted', false],
    ['HppPageOverrideSet', false],
  ])('%s is a custom-field event: %p', (type, expected) =>
    expect(isCustomFieldsEvent({ type })).toBe(expected),
  );
});
