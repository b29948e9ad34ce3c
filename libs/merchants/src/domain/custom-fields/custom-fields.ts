import type { CustomFieldDefinition } from './custom-field-definition';
import type { CustomFieldsEvent } from './custom-field-events';

/**
 * Where the current configuration stands with the gateway (the spec's `provisioning.status`):
 * - `UNPROVISIONED`: no field is configured and none is on the gateway: never configured, or
 *   cleared and the clearing provisioned. The spec's sample value, and the initial one.
 * - `PENDING`: a configured (or cleared) version the gateway has not taken yet.
 * - `PROVISIONED`: the gateway holds the current, non-empty set (`provisionedVersion` ===
 *   `configVersion`).
 * - `FAILED`: the gateway's last answer for the current version was a failure (`error`). A later
 *   success for that version, or a new version, moves on from it.
 */
export const CUSTOM_FIELDS_PROVISIONING_STATUSES = [
  'UNPROVISIONED',
  'PENDING',
  'PROVISIONED',
  'FAILED',
] as const;
export type CustomFieldsProvisioningStatus = (typeof CUSTOM_FIELDS_PROVISIONING_STATUSES)[number];

export interface CustomFieldsState {
  /** Ordered by position; empty when never configured or cleared. */
  fields: CustomFieldDefinition[];
  /** 0 = never configured; +1 per Configured or Cleared. */
  configVersion: number;
  provisioning: {
    status: CustomFieldsProvisioningStatus;
    /** The last failure for the current version, else null. */
    error: string | null;
    /** The last version the gateway took; 0 = none. */
    provisionedVersion: number;
  };
  /** When the current version was configured or cleared; null = never configured. */
  configuredAt: string | null;
}

export function initialCustomFieldsState(): CustomFieldsState {
  return {
    fields: [],
    configVersion: 0,
    provisioning: { status: 'UNPROVISIONED', error: null, provisionedVersion: 0 },
    configuredAt: null,
  };
}

/** Folds one event. Events are facts: this never throws, and ignores types it does not know. */
export function evolveCustomFields(state: CustomFieldsState, event: CustomFieldsEvent): CustomFieldsState {
  switch (event.type) {
    case 'CustomFieldsConfigured': {
      const d = event.data;
      return {
        fields: d.fields.map(copyDefinition),
        configVersion: d.configVersion,
        provisioning: { ...state.provisioning, status: 'PENDING', error: null },
        configuredAt: d.configuredAt,
      };
    }
    case 'CustomFieldsCleared': {
      const d = event.data;
      return {
        fields: [],
        configVersion: d.configVersion,
        provisioning: { ...state.provisioning, status: 'PENDING', error: null },
        configuredAt: d.clearedAt,
      };
    }
    case 'CustomFieldsProvisioned': {
      const version = event.data.provisionedVersion;
      const current = version === state.configVersion;
      return {
        ...state,
        provisioning: {
          status: !current
            ? state.provisioning.status
            : state.fields.length > 0
              ? 'PROVISIONED'
              : 'UNPROVISIONED',
          error: current ? null : state.provisioning.error,
          // Never backwards: a late answer for an older version does not undo a newer one.
          provisionedVersion: Math.max(version, state.provisioning.provisionedVersion),
        },
      };
    }
    case 'CustomFieldsProvisioningFailed': {
      const d = event.data;
      // A failure for an older version says nothing about the current one.
      if (d.configVersion !== state.configVersion) return state;
      return { ...state, provisioning: { ...state.provisioning, status: 'FAILED', error: d.error } };
    }
    default:
      return state;
  }
}

export const customFieldsEvolver = {
  initialState: initialCustomFieldsState,
  evolve: evolveCustomFields,
};

function copyDefinition(field: CustomFieldDefinition): CustomFieldDefinition {
  return {
    ...field,
    virtualTerminal: { ...field.virtualTerminal },
    hostedPaymentPage: { ...field.hostedPaymentPage },
    transactionReports: { ...field.transactionReports },
  };
}
