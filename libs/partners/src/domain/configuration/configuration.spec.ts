import {
  CURRENT_API_VERSION,
  allFeatureFlagViews,
  enabledFeatures,
  evolveConfiguration,
  featureFlagView,
  initialConfigurationState,
  type ConfigurationState,
} from './configuration';
import type { ConfigurationEvent } from './configuration-events';
import { isConfigurationEvent } from './configuration-events';
import { FeatureFlagNotFound } from './configuration-errors';
import { FEATURE_FLAG_CATALOG } from './feature-flag-catalog';

const ID = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-02T10:00:00.000Z';

const flagChanged = (
  flagName: string,
  enabled: boolean,
  globallyAvailable: boolean | null = null,
): ConfigurationEvent => ({
  type: 'FeatureFlagChanged',
  data: {
    partnerId: ID,
    flagName,
    enabled,
    globallyAvailable,
    changedBy: globallyAvailable === null ? 'partner' : 'operator',
    actor: 'key_1',
    changedAt: T1,
  },
});
const fold = (events: ConfigurationEvent[]): ConfigurationState =>
  events.reduce(evolveConfiguration, initialConfigurationState(T0));

describe('a new partner', () => {
  const state = initialConfigurationState(T0);

  it('has the catalog defaults', () => {
    for (const flag of FEATURE_FLAG_CATALOG) {
      expect(state.flags[flag.flag_name]).toEqual({
        enabled: flag.default_enabled,
        globallyAvailable: flag.globally_available,
        updatedAt: T0,
        updatedBy: 'system',
      });
    }
  });

  it('has no webhook, no allowlist, every method accepted, no gateway page, the current API version', () =>
    expect(state).toMatchObject({
      webhookUrl: null,
      ipAllowlist: [],
      hppSettings: { gatewayHppPageId: null, acceptedMethods: ['credit_card', 'debit_card', 'ach'] },
      apiVersion: CURRENT_API_VERSION,
    }));

  it('is pinned to a dated API version', () => expect(CURRENT_API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/));

  it('lists its default-on features, sorted', () =>
    expect(enabledFeatures(state)).toEqual([
      'custom_fields',
      'hosted_payment_pages',
      'recurring_billing',
      'stored_credentials',
    ]));
});

describe('evolving the configuration', () => {
  it('records a flag change with who made it and when', () =>
    expect(fold([flagChanged('ach_payments', true)]).flags.ach_payments).toEqual({
      enabled: true,
      globallyAvailable: true,
      updatedAt: T1,
      updatedBy: 'key_1',
    }));

  it('keeps the effective availability when the event does not set it', () =>
    expect(
      fold([flagChanged('terminals', false, true), flagChanged('terminals', true)]).flags.terminals
        .globallyAvailable,
    ).toBe(true));

  it('takes an operator override of the availability', () =>
    expect(fold([flagChanged('ach_payments', false, false)]).flags.ach_payments.globallyAvailable).toBe(
      false,
    ));

  it('records a flag the catalog no longer has (events are facts)', () =>
    expect(fold([flagChanged('retired_flag', true)]).flags.retired_flag?.enabled).toBe(true));

  it('changes only the settings an event names', () => {
    const state = fold([
      {
        type: 'PartnerSettingsChanged',
        data: { partnerId: ID, webhookUrl: 'https://a.example/h', changedAt: T1 },
      },
      { type: 'PartnerSettingsChanged', data: { partnerId: ID, ipAllowlist: ['10.0.0.0/8'], changedAt: T1 } },
      { type: 'PartnerSettingsChanged', data: { partnerId: ID, acceptedMethods: ['ach'], changedAt: T1 } },
    ]);
    expect(state).toMatchObject({
      webhookUrl: 'https://a.example/h',
      ipAllowlist: ['10.0.0.0/8'],
      hppSettings: { gatewayHppPageId: null, acceptedMethods: ['ach'] },
    });
  });

  it('clears the webhook on null and the allowlist on []', () =>
    expect(
      fold([
        {
          type: 'PartnerSettingsChanged',
          data: {
            partnerId: ID,
            webhookUrl: 'https://a.example/h',
            ipAllowlist: ['10.0.0.0/8'],
            changedAt: T1,
          },
        },
        {
          type: 'PartnerSettingsChanged',
          data: { partnerId: ID, webhookUrl: null, ipAllowlist: [], changedAt: T1 },
        },
      ]),
    ).toMatchObject({ webhookUrl: null, ipAllowlist: [] }));

  it('ignores events of other kinds in a shared stream, and never throws', () => {
    const other = { type: 'PartnerCertified', data: { partnerId: ID } } as unknown as ConfigurationEvent;
    expect(isConfigurationEvent(other)).toBe(false);
    expect(evolveConfiguration(initialConfigurationState(T0), other)).toEqual(initialConfigurationState(T0));
  });

  it('does not mutate the state it is given', () => {
    const before = initialConfigurationState(T0);
    const copy = structuredClone(before);
    evolveConfiguration(before, flagChanged('ach_payments', true));
    expect(before).toEqual(copy);
  });
});

describe('the partner view of a flag', () => {
  it('shows the catalog text, the effective values and the unmet dependencies', () =>
    expect(
      featureFlagView(
        fold([flagChanged('recurring_billing', false), flagChanged('stored_credentials', false)]),
        'recurring_billing',
      ),
    ).toEqual({
      flag_name: 'recurring_billing',
      display_name: 'Recurring billing',
      description: expect.any(String),
      enabled: false,
      globally_available: true,
      depends_on: ['stored_credentials'],
      unmet_dependencies: ['stored_credentials'],
    }));

  it('has no unmet dependency once they are enabled', () =>
    expect(featureFlagView(initialConfigurationState(T0), 'recurring_billing').unmet_dependencies).toEqual(
      [],
    ));

  it('names only the direct dependencies that are off', () =>
    expect(
      featureFlagView(
        fold([flagChanged('recurring_billing', false), flagChanged('stored_credentials', false)]),
        'installments',
      ).unmet_dependencies,
    ).toEqual(['recurring_billing']));

  it('shows an operator-managed flag as not globally available', () =>
    expect(featureFlagView(initialConfigurationState(T0), 'surcharging').globally_available).toBe(false));

  it('refuses an unknown flag', () =>
    expect(() => featureFlagView(initialConfigurationState(T0), 'no_such_flag')).toThrow(
      FeatureFlagNotFound,
    ));

  it('lists every catalog flag, in catalog order', () =>
    expect(allFeatureFlagViews(initialConfigurationState(T0)).map((v) => v.flag_name)).toEqual(
      FEATURE_FLAG_CATALOG.map((f) => f.flag_name),
    ));
});
