import type { CustomFieldDefinition } from './custom-field-definition';

/**
 * Stored events of a merchant's custom-field configuration. They live in the merchant's stream
 * (`merchant-{id}`) next to the lifecycle events. Stored types are never renamed or reshaped.
 * `configVersion` counts the configuration's changes (Configured and Cleared), from 1; the
 * provisioning events name the version they are about, so a late answer for an older version
 * cannot be mistaken for the current one.
 */

/** `PUT` with a non-empty set that differs from the current one. */
export interface CustomFieldsConfigured {
  type: 'CustomFieldsConfigured';
  data: {
    merchantId: string;
    partnerId: string;
    /** The whole set after the change, normalised (every property present), ordered by position. */
    fields: CustomFieldDefinition[];
    configVersion: number;
    configuredAt: string;
  };
}

/** `DELETE`, or a `PUT` with empty or absent `fields`, while a set was configured. */
export interface CustomFieldsCleared {
  type: 'CustomFieldsCleared';
  data: { merchantId: string; partnerId: string; configVersion: number; clearedAt: string };
}

/** The gateway holds `provisionedVersion` (for a cleared version: holds no fields any more). */
export interface CustomFieldsProvisioned {
  type: 'CustomFieldsProvisioned';
  data: { merchantId: string; provisionedVersion: number; provisionedAt: string };
}

/** The gateway refused or could not take `configVersion`; `error` is shown as provisioning.error. */
export interface CustomFieldsProvisioningFailed {
  type: 'CustomFieldsProvisioningFailed';
  data: { merchantId: string; configVersion: number; error: string; failedAt: string };
}

export type CustomFieldsEvent =
  CustomFieldsConfigured | CustomFieldsCleared | CustomFieldsProvisioned | CustomFieldsProvisioningFailed;

export const CUSTOM_FIELDS_EVENT_TYPES: readonly CustomFieldsEvent['type'][] = [
  'CustomFieldsConfigured',
  'CustomFieldsCleared',
  'CustomFieldsProvisioned',
  'CustomFieldsProvisioningFailed',
];

/**
 * Event type → the webhook type a partner sees (`GET /webhook-event-types`); null: internal. A
 * configuration change is the partner's own request, whose answer carries it; provisioning at the
 * gateway finishes later, so its outcome is announced. The record makes the compiler check that
 * every event type is mapped.
 */
export const CUSTOM_FIELDS_WEBHOOK_EVENT_TYPES: Readonly<Record<CustomFieldsEvent['type'], string | null>> = {
  CustomFieldsConfigured: null,
  CustomFieldsCleared: null,
  CustomFieldsProvisioned: 'custom_fields.provisioned',
  CustomFieldsProvisioningFailed: 'custom_fields.provisioning_failed',
};

/** For folding a merchant stream that also holds other merchant events. */
export function isCustomFieldsEvent(event: { type: string }): event is CustomFieldsEvent {
  return (CUSTOM_FIELDS_EVENT_TYPES as readonly string[]).includes(event.type);
}
