import { deciderSpec } from '../../../../../test/support/decider-spec';
import { PartnerNotFound } from '../partner-errors';
import { evolveConfiguration, initialConfigurationState, type ConfigurationState } from './configuration';
import {
  decideConfiguration,
  toFeatureFlagSetting,
  toPartnerConfiguration,
  type ConfigurationCommand,
  type SetFeatureFlag,
  type UpdatePartnerSettings,
} from './configuration-decide';
import type { ConfigurationEvent } from './configuration-events';
import {
  FeatureFlagDependenciesUnmet,
  FeatureFlagNotFound,
  FeatureFlagOperatorManaged,
  FeatureFlagRequiredBy,
  PartnerSettingsInvalid,
} from './configuration-errors';
import { FEATURE_FLAG_CATALOG } from './feature-flag-catalog';

const ID = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const OTHER = '9d3e5f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');

const given = deciderSpec<ConfigurationCommand, ConfigurationState, ConfigurationEvent>({
  decide: (command, state) => decideConfiguration(command, state, { partnerId: ID }),
  evolve: evolveConfiguration,
  initialState: () => initialConfigurationState(T0.toISOString()),
});

const set = (
  flagName: string,
  enabled: boolean,
  by: 'partner' | 'operator' = 'partner',
  extra: Partial<SetFeatureFlag> = {},
): SetFeatureFlag => ({
  type: 'SetFeatureFlag',
  partnerId: ID,
  flagName,
  enabled,
  by,
  actor: by === 'partner' ? 'key_1' : 'platform-operator',
  at: T1,
  ...extra,
});
const changed = (
  flagName: string,
  enabled: boolean,
  by: 'partner' | 'operator' = 'partner',
  globallyAvailable: boolean | null = null,
): ConfigurationEvent => ({
  type: 'FeatureFlagChanged',
  data: {
    partnerId: ID,
    flagName,
    enabled,
    globallyAvailable,
    changedBy: by,
    actor: by === 'partner' ? 'key_1' : 'platform-operator',
    changedAt: T1.toISOString(),
  },
});

describe('setting a feature flag', () => {
  it('lets a partner switch on a self-service flag', () =>
    given([])
      .when(set('ach_payments', true))
      .then([changed('ach_payments', true)]));

  it('lets a partner switch off a self-service flag', () =>
    given([])
      .when(set('custom_fields', false))
      .then([changed('custom_fields', false)]));

  it('records nothing when the flag already has that value', () =>
    given([]).when(set('stored_credentials', true)).then([]));

  it('records nothing when the operator repeats the current availability', () =>
    given([])
      .when(set('ach_payments', false, 'operator', { globallyAvailable: true }))
      .then([]));

  it('refuses an unknown flag (404)', () =>
    given([])
      .when(set('no_such_flag', true))
      .thenThrows(FeatureFlagNotFound, { code: 'feature_flag_not_found', flagName: 'no_such_flag' }));

  it('refuses another partner id as not found', () =>
    given([])
      .when({ ...set('ach_payments', true), partnerId: OTHER })
      .thenThrows(PartnerNotFound, { code: 'partner_not_found' }));

  describe('who may change what', () => {
    // Every catalog flag, for each side: a partner only where globally available.
    for (const flag of FEATURE_FLAG_CATALOG) {
      const target = !flag.default_enabled;
      const reachable = flag.depends_on.length === 0 || flag.flag_name === 'recurring_billing';
      if (!reachable) continue; // installments: dependencies first, covered below
      // recurring_billing is on by default and needs stored_credentials: it goes off first.
      const before = flag.flag_name === 'stored_credentials' ? [changed('recurring_billing', false)] : [];
      if (flag.globally_available) {
        it(`a partner may switch ${flag.flag_name}`, () =>
          given(before)
            .when(set(flag.flag_name, target))
            .then([changed(flag.flag_name, target)]));
      } else {
        it(`a partner may not switch ${flag.flag_name} (operator-managed, 403)`, () =>
          given([])
            .when(set(flag.flag_name, target))
            .thenThrows(FeatureFlagOperatorManaged, { code: 'feature_flag_operator_managed' }));
      }
      it(`the operator may switch ${flag.flag_name}`, () =>
        given(before)
          .when(set(flag.flag_name, target, 'operator'))
          .then([changed(flag.flag_name, target, 'operator')]));
    }

    it('refuses a partner even a no-op on an operator-managed flag', () =>
      given([]).when(set('terminals', false)).thenThrows(FeatureFlagOperatorManaged));

    it('refuses a partner setting globally_available, even to the current value', () =>
      given([])
        .when(set('ach_payments', true, 'partner', { globallyAvailable: true }))
        .thenThrows(FeatureFlagOperatorManaged, { reason: 'availability_is_operator_managed' }));

    it('lets the operator make a flag self-service, after which the partner may switch it', () =>
      given([changed('terminals', false, 'operator', true)])
        .when(set('terminals', true))
        .then([changed('terminals', true)]));

    it('lets the operator withdraw a flag from self-service, after which the partner may not', () =>
      given([changed('ach_payments', true, 'operator', false)])
        .when(set('ach_payments', false))
        .thenThrows(FeatureFlagOperatorManaged, { reason: 'not_globally_available' }));

    it('records only an availability change when enabled stays the same', () =>
      given([])
        .when(set('surcharging', false, 'operator', { globallyAvailable: true }))
        .then([changed('surcharging', false, 'operator', true)]));

    it('records the availability as null when only enabled changes', () =>
      given([])
        .when(set('terminals', true, 'operator', { globallyAvailable: false }))
        .then([changed('terminals', true, 'operator', null)]));

    it('shows the override in the state', () =>
      given([])
        .when(set('surcharging', true, 'operator', { globallyAvailable: true }))
        .thenState((state) =>
          expect(state.flags.surcharging).toMatchObject({
            enabled: true,
            globallyAvailable: true,
            updatedBy: 'platform-operator',
            updatedAt: T1.toISOString(),
          }),
        ));
  });

  describe('dependencies', () => {
    const offStored = changed('stored_credentials', false);
    const onRecurring = changed('recurring_billing', true);
    const onInstallments = changed('installments', true);
    // recurring_billing is on by default: stored_credentials goes off only after it.
    const storedOff = [changed('recurring_billing', false), offStored];

    it('enables a flag whose dependencies are on', () =>
      given([changed('recurring_billing', false)])
        .when(set('recurring_billing', true))
        .then([onRecurring]));

    it('refuses to enable a flag whose dependency is off (422, with the list)', () =>
      given(storedOff)
        .when(set('recurring_billing', true))
        .thenThrows(FeatureFlagDependenciesUnmet, {
          code: 'feature_flag_dependencies_unmet',
          unmetDependencies: ['stored_credentials'],
        }));

    it('names only the direct dependency for a chain', () =>
      given(storedOff)
        .when(set('installments', true))
        .thenThrows(FeatureFlagDependenciesUnmet, { unmetDependencies: ['recurring_billing'] }));

    it('enables the end of a chain once the chain is on', () =>
      given([onRecurring]).when(set('installments', true)).then([onInstallments]));

    it('refuses to disable a flag an enabled flag depends on (422, with the list)', () =>
      given([onRecurring])
        .when(set('stored_credentials', false))
        .thenThrows(FeatureFlagRequiredBy, {
          code: 'feature_flag_required_by',
          requiredBy: ['recurring_billing'],
        }));

    it('refuses to disable the middle of an enabled chain', () =>
      given([onRecurring, onInstallments])
        .when(set('recurring_billing', false))
        .thenThrows(FeatureFlagRequiredBy, { requiredBy: ['installments'] }));

    it('allows disabling a dependency once its dependents are off', () =>
      given([
        onRecurring,
        onInstallments,
        changed('installments', false),
        changed('recurring_billing', false),
      ])
        .when(set('stored_credentials', false))
        .then([offStored]));

    it('holds the operator to the same rules', () => {
      given(storedOff)
        .when(set('recurring_billing', true, 'operator'))
        .thenThrows(FeatureFlagDependenciesUnmet);
      given([onRecurring])
        .when(set('stored_credentials', false, 'operator'))
        .thenThrows(FeatureFlagRequiredBy);
    });

    it('does not check dependencies when only the availability changes', () =>
      given([offStored])
        .when(set('recurring_billing', false, 'operator', { globallyAvailable: false }))
        .then([changed('recurring_billing', false, 'operator', false)]));
  });
});

describe('updating partner settings', () => {
  const update = (fields: Partial<UpdatePartnerSettings> = {}): UpdatePartnerSettings => ({
    type: 'UpdatePartnerSettings',
    partnerId: ID,
    environment: 'production',
    at: T1,
    ...fields,
  });
  const settingsChanged = (fields: object): ConfigurationEvent => ({
    type: 'PartnerSettingsChanged',
    data: { partnerId: ID, ...fields, changedAt: T1.toISOString() },
  });
  const withWebhook = settingsChanged({ webhookUrl: 'https://hooks.example.com/a' });
  const withAllowlist = settingsChanged({ ipAllowlist: ['203.0.113.0/24'] });

  it('records nothing for an empty body', () => given([]).when(update()).then([]));

  it('records nothing when every field is null (null means unchanged)', () =>
    given([withWebhook, withAllowlist])
      .when(update({ webhookUrl: null, ipAllowlist: null, acceptedMethods: null }))
      .then([]));

  it('sets the webhook URL', () =>
    given([])
      .when(update({ webhookUrl: 'https://hooks.example.com/a' }))
      .then([withWebhook]));

  it('clears the webhook URL with the empty string', () =>
    given([withWebhook])
      .when(update({ webhookUrl: '' }))
      .then([settingsChanged({ webhookUrl: null })]));

  it('records nothing when clearing a webhook URL that is not set', () =>
    given([])
      .when(update({ webhookUrl: '' }))
      .then([]));

  it('records nothing when the webhook URL is unchanged', () =>
    given([withWebhook])
      .when(update({ webhookUrl: 'https://hooks.example.com/a' }))
      .then([]));

  it('leaves the webhook URL alone when it is omitted', () =>
    given([withWebhook])
      .when(update({ ipAllowlist: ['203.0.113.0/24'] }))
      .thenState((state, events) => {
        expect(events).toEqual([withAllowlist]);
        expect(state.webhookUrl).toBe('https://hooks.example.com/a');
      }));

  it('stores the allowlist normalised and without duplicates', () =>
    given([])
      .when(
        update({ ipAllowlist: ['198.51.100.7', '2001:DB8::/32', '::ffff:198.51.100.7', '198.51.100.7/32'] }),
      )
      .then([settingsChanged({ ipAllowlist: ['198.51.100.7/32', '2001:db8::/32'] })]));

  it('clears the allowlist with the empty list', () =>
    given([withAllowlist])
      .when(update({ ipAllowlist: [] }))
      .then([settingsChanged({ ipAllowlist: [] })]));

  it('records nothing when the normalised allowlist equals the current one', () =>
    given([withAllowlist])
      .when(update({ ipAllowlist: ['203.0.113.0/24', '203.0.113.0/24'] }))
      .then([]));

  it('records a reordered allowlist (it is echoed back in the order written)', () =>
    given([settingsChanged({ ipAllowlist: ['203.0.113.0/24', '198.51.100.0/24'] })])
      .when(update({ ipAllowlist: ['198.51.100.0/24', '203.0.113.0/24'] }))
      .then([settingsChanged({ ipAllowlist: ['198.51.100.0/24', '203.0.113.0/24'] })]));

  it('sets the accepted methods in canonical order', () =>
    given([])
      .when(update({ acceptedMethods: ['ach', 'credit_card'] }))
      .then([settingsChanged({ acceptedMethods: ['credit_card', 'ach'] })]));

  it('records nothing when the accepted methods are only reordered', () =>
    given([])
      .when(update({ acceptedMethods: ['ach', 'debit_card', 'credit_card'] }))
      .then([]));

  it('records only the fields that change, in one event', () =>
    given([withWebhook])
      .when(
        update({
          webhookUrl: 'https://hooks.example.com/a',
          ipAllowlist: ['203.0.113.0/24'],
          acceptedMethods: ['credit_card'],
        }),
      )
      .then([settingsChanged({ ipAllowlist: ['203.0.113.0/24'], acceptedMethods: ['credit_card'] })]));

  it('refuses invalid settings with every field error (400 validation_error) and records nothing', () =>
    given([])
      .when(update({ webhookUrl: 'http://10.0.0.1/h', ipAllowlist: ['1.2.3.4/24'], acceptedMethods: [] }))
      .thenThrows(PartnerSettingsInvalid, {
        code: 'validation_error',
        errors: [
          { field: 'webhook_url', message: expect.any(String) },
          { field: 'webhook_url', message: expect.any(String) },
          { field: 'ip_allowlist[0]', message: expect.any(String) },
          { field: 'hpp_settings.accepted_methods', message: expect.any(String) },
        ],
      }));

  it('refuses one bad field even when the others are good', () =>
    given([])
      .when(update({ webhookUrl: 'https://hooks.example.com/a', ipAllowlist: ['10.0.0.0/33'] }))
      .thenThrows(PartnerSettingsInvalid, {
        errors: [{ field: 'ip_allowlist[0]', message: expect.any(String) }],
      }));

  it.each([
    ['sandbox', 'http://127.0.0.1:4000/hooks', true],
    ['production', 'http://127.0.0.1:4000/hooks', false],
    ['sandbox', 'http://localhost:4000/hooks', true],
    ['production', 'https://localhost/hooks', false],
  ] as const)('in %s, %s is %s', (environment, webhookUrl, allowed) => {
    const run = given([]).when(update({ environment, webhookUrl }));
    if (allowed) run.then([settingsChanged({ webhookUrl })]);
    else
      run.thenThrows(PartnerSettingsInvalid, {
        errors: expect.arrayContaining([{ field: 'webhook_url', message: expect.any(String) }]),
      });
  });

  it('refuses another partner id as not found', () =>
    given([])
      .when(update({ partnerId: OTHER, webhookUrl: '' }))
      .thenThrows(PartnerNotFound));
});

describe('resources', () => {
  const partner = {
    id: ID,
    rateLimitTier: 'STANDARD',
    avsDeclinePolicy: 'NEVER_DECLINE',
    version: 7,
  } as const;

  it('renders the spec partner configuration', () => {
    const state = [
      {
        type: 'PartnerSettingsChanged',
        data: {
          partnerId: ID,
          webhookUrl: 'https://hooks.example.com/a',
          ipAllowlist: ['203.0.113.0/24'],
          acceptedMethods: ['credit_card', 'ach'],
          changedAt: T1.toISOString(),
        },
      } as ConfigurationEvent,
    ].reduce(evolveConfiguration, initialConfigurationState(T0.toISOString()));
    expect(toPartnerConfiguration(partner, state)).toStrictEqual({
      partner_id: ID,
      api_version: '2026-09-01',
      webhook_url: 'https://hooks.example.com/a',
      rate_limit_tier: 'STANDARD',
      hpp_settings: { gateway_hpp_page_id: null, accepted_methods: ['credit_card', 'ach'] },
      ip_allowlist: ['203.0.113.0/24'],
      avs_decline_policy: 'NEVER_DECLINE',
      version: 7,
    });
  });

  it('renders an unset webhook as null', () =>
    expect(
      toPartnerConfiguration(partner, initialConfigurationState(T0.toISOString())).webhook_url,
    ).toBeNull());

  it('renders the spec feature flag setting', () => {
    const state = [changed('ach_payments', true)].reduce(
      evolveConfiguration,
      initialConfigurationState(T0.toISOString()),
    );
    expect(toFeatureFlagSetting(ID, 'ach_payments', state, 3)).toStrictEqual({
      flag_name: 'ach_payments',
      partner_id: ID,
      enabled: true,
      updated_at: T1.toISOString(),
      updated_by: 'key_1',
      version: 3,
    });
  });

  it('renders an untouched flag as set by the system at creation', () =>
    expect(
      toFeatureFlagSetting(ID, 'custom_fields', initialConfigurationState(T0.toISOString()), 1),
    ).toMatchObject({
      enabled: true,
      updated_at: T0.toISOString(),
      updated_by: 'system',
    }));

  it('refuses an unknown flag', () =>
    expect(() => toFeatureFlagSetting(ID, 'nope', initialConfigurationState(T0.toISOString()), 1)).toThrow(
      FeatureFlagNotFound,
    ));
});
