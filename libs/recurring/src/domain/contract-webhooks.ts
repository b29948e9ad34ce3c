import type { ContractEventType } from './contract-events';

/**
 * The contract events a partner sees as webhooks (docs/recurring.md "Webhooks"; the webhook
 * catalog in libs/webhooks gathers them): each maps to a `contract.*` type whose `data.object` is
 * the contract resource (`toContractResource`) as the event left it. Installment steps name the installment's transaction in the resource's history
 * (`GET /platform/streams/contract-{id}/events`) and are their own types, so a partner can follow
 * dunning step by step. Internal bookkeeping (an attempt starting or withdrawn) is not sent.
 */
export interface WebhookCatalogEntry {
  eventType: ContractEventType;
  webhookType: string;
  description: string;
  object: 'contract';
}

export const CONTRACT_WEBHOOK_EVENTS: readonly WebhookCatalogEntry[] = [
  {
    eventType: 'ContractCreated',
    webhookType: 'contract.created',
    description:
      'A recurring contract was created (ACTIVE on a saved payment method, or PENDING_ACTIVATION for a hosted page plan).',
    object: 'contract',
  },
  {
    eventType: 'ContractActivated',
    webhookType: 'contract.activated',
    description: "A hosted page plan's first payment was approved; the contract is ACTIVE.",
    object: 'contract',
  },
  {
    eventType: 'ContractUpdated',
    webhookType: 'contract.updated',
    description: 'A PATCH changed next_charge_date or end_date.',
    object: 'contract',
  },
  {
    eventType: 'ContractPaused',
    webhookType: 'contract.paused',
    description: 'Charging was paused, by the partner or by the platform (state_reason says why).',
    object: 'contract',
  },
  {
    eventType: 'ContractResumed',
    webhookType: 'contract.resumed',
    description: 'Charging resumed (the partner resumed it, or the platform lifted its hold).',
    object: 'contract',
  },
  {
    eventType: 'ContractCancelled',
    webhookType: 'contract.cancelled',
    description: 'The contract was cancelled; nothing more is charged.',
    object: 'contract',
  },
  {
    eventType: 'ContractInstallmentCharged',
    webhookType: 'contract.installment_charged',
    description: 'An installment was charged (card approved, or ACH debit submitted).',
    object: 'contract',
  },
  {
    eventType: 'ContractInstallmentFailed',
    webhookType: 'contract.installment_failed',
    description: 'An installment charge was declined or refused.',
    object: 'contract',
  },
  {
    eventType: 'ContractRetryScheduled',
    webhookType: 'contract.retry_scheduled',
    description: 'A failed or returned installment will be charged again on next_charge_date.',
    object: 'contract',
  },
  {
    eventType: 'ContractInstallmentReturned',
    webhookType: 'contract.installment_returned',
    description: "An ACH installment was returned by the payer's bank; it counts as unpaid again.",
    object: 'contract',
  },
  {
    eventType: 'ContractCompleted',
    webhookType: 'contract.completed',
    description: 'Every installment was collected, or end_date passed.',
    object: 'contract',
  },
  {
    eventType: 'ContractFailed',
    webhookType: 'contract.failed',
    description: 'A hard decline or exhausted retries ended the contract.',
    object: 'contract',
  },
];
