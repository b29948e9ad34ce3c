import { z } from 'zod';
import { Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import {
  AVS_DECLINE_POLICIES,
  RATE_LIMIT_TIERS,
  type AvsDeclinePolicy,
  type RateLimitTier,
} from '../partner-transitions';
import { PartnerNotFound } from '../partner-errors';
import { enabledDependents, flagState, unmetDependencies, type ConfigurationState } from './configuration';
import type { ConfigurationEvent, PartnerSettingsChanged } from './configuration-events';
import {
  FeatureFlagDependenciesUnmet,
  FeatureFlagNotFound,
  FeatureFlagOperatorManaged,
  FeatureFlagRequiredBy,
  IpAllowlistExcludesCaller,
  PartnerSettingsInvalid,
} from './configuration-errors';
import { findFeatureFlag } from './feature-flag-catalog';
import {
  allowlistAdmits,
  normalizeAcceptedMethods,
  normalizeIpAllowlist,
  validatePartnerSettings,
  type Environment,
} from './partner-settings-validation';

export interface SetFeatureFlag {
  type: 'SetFeatureFlag';
  partnerId: string;
  flagName: string;
  enabled: boolean;
  by: 'partner' | 'operator';
  actor: string;
  /** Operator only. */
  globallyAvailable?: boolean;
  at: Date;
}

/** The spec's nullable partial update: null or omitted leaves a field as it is. */
export interface UpdatePartnerSettings {
  type: 'UpdatePartnerSettings';
  partnerId: string;
  /** The empty string clears it. */
  webhookUrl?: string | null;
  /** The empty list clears it (and with it the restriction: every address is allowed). */
  ipAllowlist?: string[] | null;
  acceptedMethods?: string[] | null;
  environment: Environment;
  /**
   * The address the partner's request comes from (the socket's peer; proxy headers are not
   * trusted). A new non-empty `ipAllowlist` must admit it, or the partner would lock itself out
   * for good. Absent only on changes not made by the partner (the operator's).
   */
  callerAddress?: string | null;
  at: Date;
}

export type ConfigurationCommand = SetFeatureFlag | UpdatePartnerSettings;

export interface ConfigurationContext {
  /** The partner whose stream is being decided on. */
  partnerId: string;
}

/** Decisions on a partner's configuration. Pure: time and the actor arrive with the command. */
export function decideConfiguration(
  command: ConfigurationCommand,
  state: ConfigurationState,
  ctx: ConfigurationContext,
): ConfigurationEvent[] {
  // A partner reaching another partner's configuration sees it as absent, never as forbidden.
  if (command.partnerId !== ctx.partnerId) throw new PartnerNotFound(command.partnerId);
  switch (command.type) {
    case 'SetFeatureFlag':
      return setFeatureFlag(command, state, ctx);
    case 'UpdatePartnerSettings':
      return updatePartnerSettings(command, state, ctx);
  }
}

function setFeatureFlag(
  command: SetFeatureFlag,
  state: ConfigurationState,
  ctx: ConfigurationContext,
): ConfigurationEvent[] {
  const flag = findFeatureFlag(command.flagName);
  if (!flag) throw new FeatureFlagNotFound(command.flagName);
  const current = flagState(state, flag);
  if (command.by === 'partner') {
    if (command.globallyAvailable != null) {
      throw new FeatureFlagOperatorManaged(flag.flag_name, 'availability_is_operator_managed');
    }
    if (!current.globallyAvailable) {
      throw new FeatureFlagOperatorManaged(flag.flag_name, 'not_globally_available');
    }
  }
  const availability = command.globallyAvailable ?? current.globallyAvailable;
  const enabledChanges = command.enabled !== current.enabled;
  const availabilityChanges = availability !== current.globallyAvailable;
  // Setting what is already set records nothing: the answer is the current setting.
  if (!enabledChanges && !availabilityChanges) return [];
  // The operator is held to the dependency rules too: a broken graph would gate endpoints
  // inconsistently (recurring_billing on with stored_credentials off), whoever caused it.
  if (enabledChanges && command.enabled) {
    const unmet = unmetDependencies(state, flag);
    if (unmet.length > 0) throw new FeatureFlagDependenciesUnmet(flag.flag_name, unmet);
  }
  if (enabledChanges && !command.enabled) {
    const dependents = enabledDependents(state, flag);
    if (dependents.length > 0) throw new FeatureFlagRequiredBy(flag.flag_name, dependents);
  }
  return [
    {
      type: 'FeatureFlagChanged',
      data: {
        partnerId: ctx.partnerId,
        flagName: flag.flag_name,
        enabled: command.enabled,
        globallyAvailable: availabilityChanges ? availability : null,
        changedBy: command.by,
        actor: command.actor,
        changedAt: command.at.toISOString(),
      },
    },
  ];
}

function updatePartnerSettings(
  command: UpdatePartnerSettings,
  state: ConfigurationState,
  ctx: ConfigurationContext,
): ConfigurationEvent[] {
  const errors = validatePartnerSettings(command);
  if (errors.length > 0) throw new PartnerSettingsInvalid(errors);

  const changes: Omit<PartnerSettingsChanged['data'], 'partnerId' | 'changedAt'> = {};
  if (command.webhookUrl != null) {
    const webhookUrl = command.webhookUrl === '' ? null : command.webhookUrl;
    if (webhookUrl !== state.webhookUrl) changes.webhookUrl = webhookUrl;
  }
  if (command.ipAllowlist != null) {
    const ipAllowlist = normalizeIpAllowlist(command.ipAllowlist);
    // Checked even when the list is unchanged: re-sending a list that excludes the caller says
    // the same thing, and the answer must not depend on what was stored before.
    if (command.callerAddress != null && !allowlistAdmits(ipAllowlist, command.callerAddress)) {
      throw new IpAllowlistExcludesCaller(command.callerAddress);
    }
    if (!sameList(ipAllowlist, state.ipAllowlist)) changes.ipAllowlist = ipAllowlist;
  }
  if (command.acceptedMethods != null) {
    const acceptedMethods = normalizeAcceptedMethods(command.acceptedMethods);
    if (!sameList(acceptedMethods, state.hppSettings.acceptedMethods)) {
      changes.acceptedMethods = acceptedMethods;
    }
  }
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'PartnerSettingsChanged',
      data: { partnerId: ctx.partnerId, ...changes, changedAt: command.at.toISOString() },
    },
  ];
}

/** Order counts for the allowlist: it is echoed back as the partner last wrote it. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** The spec's "Partner configuration" (snake_case, as on the wire). */
export const PartnerConfigurationResource = z
  .strictObject({
    partner_id: Uuid,
    api_version: z.string(),
    webhook_url: z.string().nullable(),
    rate_limit_tier: z.enum(RATE_LIMIT_TIERS),
    hpp_settings: z.strictObject({
      gateway_hpp_page_id: z.string().nullable(),
      accepted_methods: z.array(z.string()),
    }),
    ip_allowlist: z.array(z.string()).meta({ description: 'CIDR entries; empty: every address.' }),
    avs_decline_policy: z.enum(AVS_DECLINE_POLICIES),
    version: z.int(),
  })
  .meta({ id: 'PartnerConfiguration' });

export type PartnerConfiguration = z.infer<typeof PartnerConfigurationResource>;

/** Operator-managed fields come from the partner aggregate, self-service ones from `state`. */
export function toPartnerConfiguration(
  partner: { id: string; rateLimitTier: RateLimitTier; avsDeclinePolicy: AvsDeclinePolicy; version: number },
  state: ConfigurationState,
): PartnerConfiguration {
  return {
    partner_id: partner.id,
    api_version: state.apiVersion,
    webhook_url: state.webhookUrl,
    rate_limit_tier: partner.rateLimitTier,
    hpp_settings: {
      gateway_hpp_page_id: state.hppSettings.gatewayHppPageId,
      accepted_methods: [...state.hppSettings.acceptedMethods],
    },
    ip_allowlist: [...state.ipAllowlist],
    avs_decline_policy: partner.avsDeclinePolicy,
    version: partner.version,
  };
}

/** The spec's "Feature flag setting (after a change)". */
export const FeatureFlagSettingResource = z
  .strictObject({
    flag_name: z.string(),
    partner_id: Uuid,
    enabled: z.boolean(),
    updated_at: Timestamp,
    updated_by: z.string(),
    version: z.int(),
  })
  .meta({ id: 'FeatureFlagSetting' });

export type FeatureFlagSetting = z.infer<typeof FeatureFlagSettingResource>;

export function toFeatureFlagSetting(
  partnerId: string,
  flagName: string,
  state: ConfigurationState,
  version: number,
): FeatureFlagSetting {
  const flag = findFeatureFlag(flagName);
  if (!flag) throw new FeatureFlagNotFound(flagName);
  const current = flagState(state, flag);
  return {
    flag_name: flag.flag_name,
    partner_id: partnerId,
    enabled: current.enabled,
    updated_at: current.updatedAt,
    updated_by: current.updatedBy,
    version,
  };
}
