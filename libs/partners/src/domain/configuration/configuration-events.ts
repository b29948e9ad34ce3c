/**
 * Stored events of a partner's configuration (feature flags and self-service settings). They live
 * in the partner's stream next to the PartnerEvents. Stored types are never renamed or reshaped.
 */

export interface FeatureFlagChanged {
  type: 'FeatureFlagChanged';
  data: {
    partnerId: string;
    flagName: string;
    /** The value after the change, also when only the availability changed. */
    enabled: boolean;
    /** Null unless an operator changed whether the partner may switch the flag itself. */
    globallyAvailable: boolean | null;
    changedBy: 'partner' | 'operator';
    /** Who, within `changedBy`: an API key id for a partner, the operator's name otherwise. */
    actor: string;
    changedAt: string;
  };
}

export interface PartnerSettingsChanged {
  type: 'PartnerSettingsChanged';
  /** Only the fields that changed are present; `webhookUrl: null` means it was cleared. */
  data: {
    partnerId: string;
    webhookUrl?: string | null;
    ipAllowlist?: string[];
    acceptedMethods?: string[];
    changedAt: string;
  };
}

export type ConfigurationEvent = FeatureFlagChanged | PartnerSettingsChanged;

export const CONFIGURATION_EVENT_TYPES: readonly ConfigurationEvent['type'][] = [
  'FeatureFlagChanged',
  'PartnerSettingsChanged',
];

/** For folding a partner stream that also holds other partner events. */
export function isConfigurationEvent(event: { type: string }): event is ConfigurationEvent {
  return (CONFIGURATION_EVENT_TYPES as readonly string[]).includes(event.type);
}
