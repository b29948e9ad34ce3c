import { z } from 'zod';
import { CUSTOMER_WEBHOOK_EVENT_TYPES } from '../../../customers/src/domain';
import { HPP_SESSION_WEBHOOK_EVENT_TYPES } from '../../../hosted-pages/src/domain';
import { CONTRACT_WEBHOOK_EVENTS } from '../../../recurring/src/domain';
import {
  CUSTOM_FIELDS_WEBHOOK_EVENT_TYPES,
  MERCHANT_WEBHOOK_EVENT_TYPES,
} from '../../../merchants/src/domain';
import { SETTLEMENT_WEBHOOK_EVENTS } from '../../../settlement/src/domain';
import { TERMINALS_WEBHOOK_EVENTS } from '../../../terminals/src/domain';
import { TRANSACTION_WEBHOOK_EVENT_TYPES } from '../../../transactions/src/domain';
import { STORED_CREDENTIAL_WEBHOOK_EVENT_TYPES } from '../../../vault/src/domain';
import { WEBHOOK_ENDPOINT_EVENT_TYPES } from './webhook-endpoint-events';

/**
 * The webhook event-type catalog (`GET /webhook-event-types`, docs/webhooks.md): every type a
 * partner can receive, what it means, and which resource its `data.object` is. Each context says
 * which of its domain events a partner sees and under which type (the `*_WEBHOOK_EVENT_TYPES`
 * records next to its events, checked complete by the compiler); this file gathers them, and
 * lists every other domain event as internal, with the reason.
 */
export const WEBHOOK_OBJECT_KINDS = [
  'merchant',
  'custom_field_configuration',
  'transaction',
  'hpp_session',
  'stored_credential',
  'customer',
  'settlement_batch',
  'reconciliation_exception',
  'terminal',
  'contract',
  'webhook_endpoint',
] as const;
export type WebhookObjectKind = (typeof WEBHOOK_OBJECT_KINDS)[number];

export const WebhookEventTypeSchema = z
  .strictObject({
    type: z.string(),
    description: z.string(),
    object: z
      .enum(WEBHOOK_OBJECT_KINDS)
      .meta({ description: 'The resource in `data.object`, as the API answers it, at the event.' }),
    subscribable: z.boolean().meta({
      description: 'false: sent on request only (`webhook_endpoint.test`), never named in `enabled_events`.',
    }),
  })
  .meta({ id: 'WebhookEventType' });
export type WebhookEventTypeDefinition = z.infer<typeof WebhookEventTypeSchema>;

const t = (type: string, object: WebhookObjectKind, description: string): WebhookEventTypeDefinition => ({
  type,
  description,
  object,
  subscribable: true,
});

export const WEBHOOK_TEST_EVENT_TYPE = 'webhook_endpoint.test';

export const WEBHOOK_EVENT_TYPE_CATALOG: readonly WebhookEventTypeDefinition[] = [
  t('merchant.created', 'merchant', 'A merchant was created (state DRAFT).'),
  t(
    'merchant.updated',
    'merchant',
    'A merchant’s application fields changed (PATCH in DRAFT or AWAITING_CLARIFICATION).',
  ),
  t('merchant.submitted', 'merchant', 'The merchant was submitted for review (SUBMITTED).'),
  t(
    'merchant.state_changed',
    'merchant',
    'The merchant moved on through onboarding: review, signature, underwriting, provisioning, a response to clarification, a resubmission or a reactivation.',
  ),
  t(
    'merchant.clarification_requested',
    'merchant',
    'The platform needs more information (AWAITING_CLARIFICATION; see clarification_message).',
  ),
  t('merchant.envelope_resent', 'merchant', 'The signature envelope was sent to the signer again.'),
  t(
    'merchant.rejected',
    'merchant',
    'The merchant was rejected (envelope declined, or underwriting failed); see rejection_reason_code.',
  ),
  t('merchant.live', 'merchant', 'The merchant went LIVE: real payments are processed.'),
  t('merchant.suspended', 'merchant', 'The merchant was suspended; see restriction_reason.'),
  t('merchant.closed', 'merchant', 'The merchant was closed (terminal).'),
  t(
    'custom_fields.provisioned',
    'custom_field_configuration',
    'The gateway holds the merchant’s custom-field configuration (provisioning.status PROVISIONED).',
  ),
  t(
    'custom_fields.provisioning_failed',
    'custom_field_configuration',
    'The gateway refused the custom-field configuration; provisioning.error says why.',
  ),
  t(
    'transaction.created',
    'transaction',
    'A transaction was recorded (INITIATED), before the gateway answers.',
  ),
  t(
    'transaction.approved',
    'transaction',
    'The gateway approved the transaction (a SALE is CAPTURED, an ACH debit SUBMITTED, a follow-up done).',
  ),
  t(
    'transaction.declined',
    'transaction',
    'The gateway declined the transaction (FAILED; see decline_code).',
  ),
  t(
    'transaction.voided',
    'transaction',
    'A VOID or ACH_VOID cancelled the transaction before settlement (VOIDED).',
  ),
  t(
    'transaction.reversed',
    'transaction',
    'An AUTH_REVERSAL or ACH_REVERSAL reversed the transaction (REVERSED).',
  ),
  t(
    'transaction.refunded',
    'transaction',
    'A refund took part or all of the transaction (PARTIALLY_REFUNDED or REFUNDED).',
  ),
  t(
    'transaction.refund_failed',
    'transaction',
    'The gateway refused a refund of the transaction; its amount is refundable again.',
  ),
  t('transaction.settled', 'transaction', 'The transaction settled into a batch (SETTLED; see batch_id).'),
  t(
    'transaction.returned',
    'transaction',
    'The receiving bank returned the ACH entry with an R-code (RETURNED; see return_code).',
  ),
  t('transaction.disputed', 'transaction', 'A chargeback was opened against the transaction (DISPUTED).'),
  t(
    'chargeback.received',
    'transaction',
    'A chargeback was received for the transaction (sent with transaction.disputed).',
  ),
  t(
    'chargeback.resolved',
    'transaction',
    'The chargeback was resolved: lost (CHARGED_BACK) or won (back to SETTLED).',
  ),
  t(
    'three_ds.challenge_issued',
    'transaction',
    'The issuer asked for a 3-D Secure challenge (THREE_DS_PENDING; see three_ds.challenge_url).',
  ),
  t(
    'three_ds.completed',
    'transaction',
    'The 3-D Secure challenge ended: authenticated, or failed (see three_ds_failure_reason).',
  ),
  t('hpp_session.created', 'hpp_session', 'A hosted payment page session was created (PENDING).'),
  t(
    'hpp_session.completed',
    'hpp_session',
    'The payer completed the hosted page; carries transaction_id and, for a saved card, vault_token.',
  ),
  t(
    'hpp_session.cancelled',
    'hpp_session',
    'The session was cancelled, by the partner or after too many failed payer attempts.',
  ),
  t('hpp_session.expired', 'hpp_session', 'The session reached expires_at unused (EXPIRED).'),
  t(
    'stored_credential.created',
    'stored_credential',
    'A payment method was saved to the vault (ACTIVE; see vault_token).',
  ),
  t(
    'stored_credential.revoked',
    'stored_credential',
    'A stored credential was revoked (REVOKED); it can no longer be charged.',
  ),
  t('customer.created', 'customer', 'A customer was created.'),
  t('customer.updated', 'customer', 'A customer’s fields changed.'),
  t('customer.deleted', 'customer', 'A customer was deleted.'),
  ...SETTLEMENT_WEBHOOK_EVENTS.map((entry) => t(entry.webhookType, entry.object, entry.description)),
  ...TERMINALS_WEBHOOK_EVENTS.map((entry) => t(entry.webhookType, entry.object, entry.description)),
  ...CONTRACT_WEBHOOK_EVENTS.map((entry) => t(entry.webhookType, entry.object, entry.description)),
  {
    type: WEBHOOK_TEST_EVENT_TYPE,
    description: 'Sent on request by POST /webhook-endpoints/{id}/test, to that endpoint only.',
    object: 'webhook_endpoint',
    subscribable: false,
  },
];

const list = (value: string | readonly string[] | null): readonly string[] =>
  value === null ? [] : typeof value === 'string' ? [value] : value;

function gather(...tables: Readonly<Record<string, string | readonly string[] | null>>[]) {
  const mapping: Record<string, readonly string[]> = {};
  for (const table of tables) {
    for (const [eventType, webhookTypes] of Object.entries(table)) mapping[eventType] = list(webhookTypes);
  }
  return mapping;
}

/**
 * Domain event type → the webhook types a partner receives for it (empty: internal), from the
 * contexts' own tables. Types of streams no context table covers are absent.
 */
export const DOMAIN_EVENT_WEBHOOK_TYPES: Readonly<Record<string, readonly string[]>> = gather(
  MERCHANT_WEBHOOK_EVENT_TYPES,
  CUSTOM_FIELDS_WEBHOOK_EVENT_TYPES,
  TRANSACTION_WEBHOOK_EVENT_TYPES,
  HPP_SESSION_WEBHOOK_EVENT_TYPES,
  STORED_CREDENTIAL_WEBHOOK_EVENT_TYPES,
  CUSTOMER_WEBHOOK_EVENT_TYPES,
  Object.fromEntries(SETTLEMENT_WEBHOOK_EVENTS.map((entry) => [entry.eventType, entry.webhookType])),
  Object.fromEntries(TERMINALS_WEBHOOK_EVENTS.map((entry) => [entry.eventType, entry.webhookType])),
  Object.fromEntries(CONTRACT_WEBHOOK_EVENTS.map((entry) => [entry.eventType, entry.webhookType])),
);

const PARTNER_ACCOUNT =
  'the partner account itself (identity, keys, configuration, certification, HPP template): changed by the ' +
  'partner’s own request or its platform operator, and read back through the partner endpoints';
const MERCHANT_CONFIGURATION =
  'merchant configuration that only the partner’s own request writes; that request’s answer carries the result';
const WEBHOOK_CONFIGURATION =
  'the webhook configuration itself (the partner’s own request); a test request is delivered as webhook_endpoint.test';

/** Domain events no partner receives as a webhook, and why. */
export const INTERNAL_EVENT_TYPES: Readonly<Record<string, string>> = {
  PartnerCreated: PARTNER_ACCOUNT,
  PartnerConfigChanged: PARTNER_ACCOUNT,
  PartnerCertified: PARTNER_ACCOUNT,
  PartnerCertificationReset: PARTNER_ACCOUNT,
  ApiKeyIssued: PARTNER_ACCOUNT,
  ApiKeyRotated: PARTNER_ACCOUNT,
  ApiKeyRevoked: PARTNER_ACCOUNT,
  FeatureFlagChanged: PARTNER_ACCOUNT,
  PartnerSettingsChanged: PARTNER_ACCOUNT,
  CertificationFlowStarted: PARTNER_ACCOUNT,
  CertificationCheckEvaluated: PARTNER_ACCOUNT,
  CertificationFactObserved: PARTNER_ACCOUNT,
  CertificationFlowCompleted: PARTNER_ACCOUNT,
  RecertificationRequested: PARTNER_ACCOUNT,
  RecertificationRequestFulfilled: PARTNER_ACCOUNT,
  HppPageTemplateSet: PARTNER_ACCOUNT,
  HppPageOverrideSet: MERCHANT_CONFIGURATION,
  HppPageOverrideDeleted: MERCHANT_CONFIGURATION,
  HppEmbeddingDomainsReplaced: MERCHANT_CONFIGURATION,
  MerchantSaqTypeRecorded: MERCHANT_CONFIGURATION,
  MerchantComplianceDocumentUploaded: MERCHANT_CONFIGURATION,
  CustomFieldsConfigured: MERCHANT_CONFIGURATION,
  CustomFieldsCleared: MERCHANT_CONFIGURATION,
  MerchantBankAccountSet: MERCHANT_CONFIGURATION,
  MerchantBankVerificationChecked: MERCHANT_CONFIGURATION,
  MerchantFeeProfileSet: MERCHANT_CONFIGURATION,
  MerchantConvenienceFeeSet: MERCHANT_CONFIGURATION,
  MerchantSurchargeSet: MERCHANT_CONFIGURATION,
  TransactionOutcomeUnknown:
    'no outcome yet (the create answered 502); transaction.approved or transaction.declined follows',
  HppSessionAttemptFailed:
    'a payer’s failed try on an open page; the session stays PENDING (the lockout ends it: hpp_session.cancelled)',
  SandboxClockAdvanced: 'a sandbox operator tool, not a fact about any partner’s records',
  SettlementBatchExceptionOutcomeRecorded:
    'the batch’s copy of an exception’s outcome; the exception’s own event sends reconciliation_exception.*',
  TerminalHeartbeatRecorded:
    'a device reporting in; its effect shows in the terminal’s last_heartbeat_at and firmware_version (the first one sends terminal.activated)',
  TerminalSerialNumberClaimed:
    'which terminal holds a merchant’s serial number, a uniqueness guard; terminal.created tells the registration',
  HppSessionContractLinked:
    'names the contract of the session’s recurring_plan; hpp_session.completed carries it (contract_id) and contract.created tells the contract',
  ContractInstallmentAttempted:
    'a charge starting; contract.installment_charged or contract.installment_failed tells how it ended, and the transaction has its own webhooks',
  ContractInstallmentAttemptWithdrawn:
    'a charge that never reached the gateway (a hold, or a pause or cancel before it began): nothing was charged, and contract.paused or contract.cancelled tells why',
  ...Object.fromEntries(WEBHOOK_ENDPOINT_EVENT_TYPES.map((type) => [type, WEBHOOK_CONFIGURATION])),
};

const CATALOG = new Map(WEBHOOK_EVENT_TYPE_CATALOG.map((entry) => [entry.type, entry]));

/** Types a partner may name in `enabled_events`. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_TYPE_CATALOG.filter(
  (entry) => entry.subscribable,
).map((entry) => entry.type);

export function findWebhookEventType(type: string): WebhookEventTypeDefinition | undefined {
  return CATALOG.get(type);
}

export function isSubscribableEventType(type: string): boolean {
  return CATALOG.get(type)?.subscribable === true;
}

/** The webhook types of a domain event, in order (empty for internal and unknown types). */
export function webhookTypesOf(domainEventType: string): readonly string[] {
  return DOMAIN_EVENT_WEBHOOK_TYPES[domainEventType] ?? [];
}
