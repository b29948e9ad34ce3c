import { z } from 'zod';
import { CURRENT_API_VERSION } from '../../../../platform/src/http/api-version';
import type { ConfigurationEvent } from './configuration-events';
import { FeatureFlagNotFound } from './configuration-errors';
import { FEATURE_FLAG_CATALOG, findFeatureFlag, type FeatureFlagDefinition } from './feature-flag-catalog';

/** The dated API version partners are pinned to on creation (the spec's latest changelog month). */
export { CURRENT_API_VERSION };

/**
 * A new partner's pages take every method; the list only narrows. ACH also needs the
 * `ach_payments` flag, so listing `ach` enables nothing by itself (docs/configuration.md).
 */
export const DEFAULT_ACCEPTED_METHODS: readonly string[] = ['credit_card', 'debit_card', 'ach'];

/** `updatedBy` of a flag nobody has touched: its value is the catalog default. */
export const CATALOG_DEFAULT_ACTOR = 'system';

export interface FeatureFlagState {
  enabled: boolean;
  /** Effective: the operator's override if any, else the catalog default. */
  globallyAvailable: boolean;
  updatedAt: string;
  updatedBy: string;
}

export interface ConfigurationState {
  flags: Record<string, FeatureFlagState>;
  webhookUrl: string | null;
  ipAllowlist: string[];
  hppSettings: { gatewayHppPageId: string | null; acceptedMethods: string[] };
  apiVersion: string;
}

/** A partner's configuration before any change: every catalog flag at its default. */
export function initialConfigurationState(createdAt: string): ConfigurationState {
  const flags: Record<string, FeatureFlagState> = {};
  for (const flag of FEATURE_FLAG_CATALOG) flags[flag.flag_name] = defaultFlagState(flag, createdAt);
  return {
    flags,
    webhookUrl: null,
    ipAllowlist: [],
    hppSettings: { gatewayHppPageId: null, acceptedMethods: [...DEFAULT_ACCEPTED_METHODS] },
    apiVersion: CURRENT_API_VERSION,
  };
}

function defaultFlagState(flag: FeatureFlagDefinition, at: string): FeatureFlagState {
  return {
    enabled: flag.default_enabled,
    globallyAvailable: flag.globally_available,
    updatedAt: at,
    updatedBy: CATALOG_DEFAULT_ACTOR,
  };
}

/** Folds one event. Events are facts: this never throws, and ignores types it does not know. */
export function evolveConfiguration(
  state: ConfigurationState,
  event: ConfigurationEvent,
): ConfigurationState {
  switch (event.type) {
    case 'FeatureFlagChanged': {
      const d = event.data;
      const current = state.flags[d.flagName];
      // A flag since dropped from the catalog is still recorded: the event happened.
      const globallyAvailable =
        d.globallyAvailable ?? current?.globallyAvailable ?? findFeatureFlag(d.flagName)?.globally_available;
      const flag: FeatureFlagState = {
        enabled: d.enabled,
        globallyAvailable: globallyAvailable ?? false,
        updatedAt: d.changedAt,
        updatedBy: d.actor,
      };
      return { ...state, flags: { ...state.flags, [d.flagName]: flag } };
    }
    case 'PartnerSettingsChanged': {
      const d = event.data;
      return {
        ...state,
        webhookUrl: d.webhookUrl === undefined ? state.webhookUrl : d.webhookUrl,
        ipAllowlist: d.ipAllowlist ? [...d.ipAllowlist] : state.ipAllowlist,
        hppSettings: d.acceptedMethods
          ? { ...state.hppSettings, acceptedMethods: [...d.acceptedMethods] }
          : state.hppSettings,
      };
    }
    default:
      return state;
  }
}

export const configurationEvolver = (createdAt: string) => ({
  initialState: () => initialConfigurationState(createdAt),
  evolve: evolveConfiguration,
});

/** The flag's state, or its catalog default when the state predates the flag. */
export function flagState(state: ConfigurationState, flag: FeatureFlagDefinition): FeatureFlagState {
  return state.flags[flag.flag_name] ?? defaultFlagState(flag, '1970-01-01T00:00:00.000Z');
}

export function isFlagEnabled(state: ConfigurationState, flagName: string): boolean {
  const flag = findFeatureFlag(flagName);
  return flag ? flagState(state, flag).enabled : false;
}

/** Capabilities' `enabled_features`: enabled catalog flags, sorted. */
export function enabledFeatures(state: ConfigurationState): string[] {
  return FEATURE_FLAG_CATALOG.filter((flag) => flagState(state, flag).enabled)
    .map((flag) => flag.flag_name)
    .sort();
}

/** Dependencies of `flag` that are not enabled. */
export function unmetDependencies(state: ConfigurationState, flag: FeatureFlagDefinition): string[] {
  return flag.depends_on.filter((dependency) => !isFlagEnabled(state, dependency));
}

/** Enabled flags that depend on `flag` directly (indirect ones need a direct one enabled too). */
export function enabledDependents(state: ConfigurationState, flag: FeatureFlagDefinition): string[] {
  return FEATURE_FLAG_CATALOG.filter(
    (other) => other.depends_on.includes(flag.flag_name) && flagState(state, other).enabled,
  ).map((other) => other.flag_name);
}

/** The spec's "Feature flag (partner view)". */
export const FeatureFlagViewResource = z
  .strictObject({
    flag_name: z.string(),
    display_name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    globally_available: z.boolean(),
    depends_on: z.array(z.string()),
    unmet_dependencies: z.array(z.string()),
  })
  .meta({ id: 'FeatureFlag' });

export type FeatureFlagView = z.infer<typeof FeatureFlagViewResource>;

export function featureFlagView(state: ConfigurationState, flagName: string): FeatureFlagView {
  const flag = findFeatureFlag(flagName);
  if (!flag) throw new FeatureFlagNotFound(flagName);
  const current = flagState(state, flag);
  return {
    flag_name: flag.flag_name,
    display_name: flag.display_name,
    description: flag.description,
    enabled: current.enabled,
    globally_available: current.globallyAvailable,
    depends_on: [...flag.depends_on],
    unmet_dependencies: unmetDependencies(state, flag),
  };
}

/** `GET /config/feature-flags/me`: every catalog flag, in catalog order. */
export function allFeatureFlagViews(state: ConfigurationState): FeatureFlagView[] {
  return FEATURE_FLAG_CATALOG.map((flag) => featureFlagView(state, flag.flag_name));
}
