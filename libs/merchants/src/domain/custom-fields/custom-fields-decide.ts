import { z } from 'zod';
import { Uuid } from '../../../../platform/src/openapi/wire-schemas';
import type { RegexVerdict } from '../../../../platform/src/validation/safe-regex';
import {
  isEmptyFieldsInput,
  normalizeFields,
  sameFields,
  validateFieldDefinitions,
  type CustomFieldDefinitionInput,
} from './custom-field-definition';
import { CustomFieldsInvalid } from './custom-field-errors';
import type { CustomFieldsEvent } from './custom-field-events';
import { CUSTOM_FIELDS_PROVISIONING_STATUSES, type CustomFieldsState } from './custom-fields';
import { CustomFieldDefinitionSchema } from './custom-field-definition';

/**
 * Decisions on a merchant's custom-field configuration (events on `merchant-{id}`). Pure: time
 * arrives with the command. Whether the merchant exists and belongs to the partner is checked
 * by the handler before deciding (404 `merchant_not_found`). Setting what is already set
 * records nothing, so a repeated PUT or DELETE answers with the current configuration.
 */

/** `PUT /config/custom-fields/merchants/{merchantId}`: `fields` replaces the whole set. */
export interface ConfigureCustomFields {
  type: 'ConfigureCustomFields';
  merchantId: string;
  partnerId: string;
  /** `body.fields` as received; absent, null or `[]` clears the set. */
  fields: unknown;
  /**
   * The analyser's verdict on each `regEx` of `fields` (regExPatternsToAnalyse), obtained before
   * deciding because the analysis is I/O-bound work outside the event loop. A pattern without a
   * `safe` verdict here is refused.
   */
  regExVerdicts?: Readonly<Record<string, RegexVerdict>>;
  at: Date;
}

/** `DELETE /config/custom-fields/merchants/{merchantId}`. */
export interface ClearCustomFields {
  type: 'ClearCustomFields';
  merchantId: string;
  partnerId: string;
  at: Date;
}

/** The provisioning worker: the gateway took `version`. */
export interface MarkCustomFieldsProvisioned {
  type: 'MarkCustomFieldsProvisioned';
  merchantId: string;
  version: number;
  at: Date;
}

/** The provisioning worker: the gateway refused or could not take `version`. */
export interface MarkCustomFieldsProvisioningFailed {
  type: 'MarkCustomFieldsProvisioningFailed';
  merchantId: string;
  version: number;
  error: string;
  at: Date;
}

export type CustomFieldsCommand =
  | ConfigureCustomFields
  | ClearCustomFields
  | MarkCustomFieldsProvisioned
  | MarkCustomFieldsProvisioningFailed;

/** A gateway's message is kept, but not without bound. */
export const PROVISIONING_ERROR_MAX_LENGTH = 500;

export function decideCustomFields(
  command: CustomFieldsCommand,
  state: CustomFieldsState,
): CustomFieldsEvent[] {
  switch (command.type) {
    case 'ConfigureCustomFields':
      return configure(command, state);
    case 'ClearCustomFields':
      return clear(command, state);
    case 'MarkCustomFieldsProvisioned':
      return markProvisioned(command, state);
    case 'MarkCustomFieldsProvisioningFailed':
      return markFailed(command, state);
  }
}

function configure(command: ConfigureCustomFields, state: CustomFieldsState): CustomFieldsEvent[] {
  const errors = validateFieldDefinitions(command.fields, command.regExVerdicts ?? {});
  if (errors.length > 0) throw new CustomFieldsInvalid(errors);
  if (isEmptyFieldsInput(command.fields)) return clear({ ...command, type: 'ClearCustomFields' }, state);
  const fields = normalizeFields(command.fields as CustomFieldDefinitionInput[]);
  if (sameFields(fields, state.fields)) return [];
  return [
    {
      type: 'CustomFieldsConfigured',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        fields,
        configVersion: state.configVersion + 1,
        configuredAt: command.at.toISOString(),
      },
    },
  ];
}

/** Clearing what is clear (never configured, or already cleared) records nothing. */
function clear(command: ClearCustomFields, state: CustomFieldsState): CustomFieldsEvent[] {
  if (state.fields.length === 0) return [];
  return [
    {
      type: 'CustomFieldsCleared',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        configVersion: state.configVersion + 1,
        clearedAt: command.at.toISOString(),
      },
    },
  ];
}

/** Only the current version counts; an answer already recorded is not recorded twice. */
function markProvisioned(
  command: MarkCustomFieldsProvisioned,
  state: CustomFieldsState,
): CustomFieldsEvent[] {
  if (command.version !== state.configVersion || state.configVersion === 0) return [];
  if (state.provisioning.provisionedVersion === command.version) return [];
  return [
    {
      type: 'CustomFieldsProvisioned',
      data: {
        merchantId: command.merchantId,
        provisionedVersion: command.version,
        provisionedAt: command.at.toISOString(),
      },
    },
  ];
}

/**
 * Only the current version counts, and not once it is provisioned (a late failure of an attempt
 * that was retried successfully). The same failure twice in a row is recorded once.
 */
function markFailed(
  command: MarkCustomFieldsProvisioningFailed,
  state: CustomFieldsState,
): CustomFieldsEvent[] {
  if (command.version !== state.configVersion || state.configVersion === 0) return [];
  if (state.provisioning.provisionedVersion === command.version) return [];
  const error = [...(command.error.trim() || 'provisioning failed')]
    .slice(0, PROVISIONING_ERROR_MAX_LENGTH)
    .join('');
  if (state.provisioning.status === 'FAILED' && state.provisioning.error === error) return [];
  return [
    {
      type: 'CustomFieldsProvisioningFailed',
      data: {
        merchantId: command.merchantId,
        configVersion: command.version,
        error,
        failedAt: command.at.toISOString(),
      },
    },
  ];
}

/** The spec's "Custom-field configuration (per merchant)", snake_case as on the wire. */
export const CustomFieldConfigurationSchema = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    merchant_id: Uuid,
    fields: z.array(CustomFieldDefinitionSchema).max(10),
    version: z.int(),
    provisioning: z.strictObject({
      status: z.enum(CUSTOM_FIELDS_PROVISIONING_STATUSES),
      error: z.string().nullable(),
      provisioned_version: z.int(),
    }),
  })
  .meta({ id: 'CustomFieldConfiguration' });
export type CustomFieldConfiguration = z.infer<typeof CustomFieldConfigurationSchema>;

/**
 * The resource, also for a merchant that never configured any field (`fields: []`, version 0,
 * UNPROVISIONED): a GET answers 200, not 404. There is one configuration per merchant, so its
 * `id` is the merchant's id: a UUID, stable across clears and re-configurations, and needing no
 * minted id in any event. `version` defaults to `configVersion`, so `provisioning.
 * provisioned_version === version` tells a client its latest set is live; a handler may pass the
 * merchant stream's version instead, at the price of that comparison.
 */
export function toCustomFieldConfiguration(
  merchant: { id: string; partnerId: string },
  state: CustomFieldsState,
  version: number = state.configVersion,
): CustomFieldConfiguration {
  return {
    id: merchant.id,
    partner_id: merchant.partnerId,
    merchant_id: merchant.id,
    fields: state.fields.map((field) => ({
      ...field,
      virtualTerminal: { ...field.virtualTerminal },
      hostedPaymentPage: { ...field.hostedPaymentPage },
      transactionReports: { ...field.transactionReports },
    })),
    version,
    provisioning: {
      status: state.provisioning.status,
      error: state.provisioning.error,
      provisioned_version: state.provisioning.provisionedVersion,
    },
  };
}
