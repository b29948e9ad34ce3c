import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import {
  CUSTOMER_EVENT_TYPES,
  CUSTOMER_STREAM_PREFIX,
  customerEvolver,
  toCustomerResource,
} from '../../../customers/src/domain';
import type { Customer, CustomerEvent } from '../../../customers/src/domain';
import {
  HPP_SESSION_EVENT_TYPES,
  HPP_SESSION_STREAM_PREFIX,
  hppSessionEvolver,
  toSessionResource,
  type HppSession,
  type HppSessionEvent,
  type HppSessionUrls,
} from '../../../hosted-pages/src/domain';
import {
  MERCHANT_STREAM_EVENT_TYPES,
  merchantEvolver,
  toCustomFieldConfiguration,
  toMerchantResource,
  type Merchant,
  type MerchantStreamEvent,
} from '../../../merchants/src/domain';
import { CURRENT_API_VERSION } from '../../../partners/src/domain';
import {
  RECONCILIATION_EXCEPTION_EVENT_TYPES,
  RECONCILIATION_EXCEPTION_STREAM_PREFIX,
  reconciliationExceptionEvolver,
  SETTLEMENT_BATCH_EVENT_TYPES,
  SETTLEMENT_BATCH_STREAM_PREFIX,
  settlementBatchEvolver,
  toBatchResource,
  toReconciliationExceptionResource,
  type ReconciliationException,
  type ReconciliationExceptionEvent,
  type SettlementBatch,
  type SettlementBatchEvent,
} from '../../../settlement/src/domain';
import {
  CONTRACT_EVENT_TYPES,
  CONTRACT_STREAM_PREFIX,
  contractEvolver,
  toContractResource,
  type Contract,
  type ContractEvent,
} from '../../../recurring/src/domain';
import {
  TERMINAL_EVENT_TYPES,
  TERMINAL_STREAM_PREFIX,
  terminalEvolver,
  toTerminalResource,
  type Terminal,
  type TerminalEvent,
} from '../../../terminals/src/domain';
import {
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_STREAM_PREFIX,
  toTransactionResource,
  transactionEvolver,
  type Transaction,
  type TransactionEvent,
} from '../../../transactions/src/domain';
import {
  STORED_CREDENTIAL_EVENT_TYPES,
  STORED_CREDENTIAL_STREAM_PREFIX,
  storedCredentialEvolver,
  toStoredCredentialResource,
  type StoredCredential,
  type StoredCredentialEvent,
} from '../../../vault/src/domain';
import type { WebhookEndpoint } from './webhook-endpoint';
import { toWebhookEndpointResource } from './webhook-endpoint-resource';
import type { WebhookObjectKind } from './webhook-event-types';

/**
 * Where a webhook's `data.object` comes from: the aggregate whose stream the event is on, folded
 * with that aggregate's own `evolve` up to and including the event, then rendered by the same
 * mapper the API answers with. So the object is the resource as a read at that moment would have
 * shown it, whatever happened after.
 */
export interface Owner {
  partnerId: string;
  /** null for records of no merchant (a test event); a merchant's own events name itself. */
  merchantId: string | null;
}

interface Folding<S, E> {
  prefix: string;
  eventTypes: readonly string[];
  evolve(state: S | null, event: E): S | null;
  owner(state: S): Owner;
}

type AnyFolding = Folding<unknown, { type: string; data: unknown }>;

const ofMerchant = (state: { partnerId: string; merchantId: string }): Owner => ({
  partnerId: state.partnerId,
  merchantId: state.merchantId,
});

function folding<S, E>(
  prefix: string,
  eventTypes: readonly string[],
  evolver: { evolve(state: S | null, event: E): S | null },
  owner: (state: S) => Owner,
): AnyFolding {
  return { prefix, eventTypes, evolve: evolver.evolve, owner } as unknown as AnyFolding;
}

/** Every stream whose events carry webhooks, and how its aggregate is folded. */
export const WEBHOOK_SOURCE_STREAMS: readonly AnyFolding[] = [
  folding<Merchant, MerchantStreamEvent>('merchant-', MERCHANT_STREAM_EVENT_TYPES, merchantEvolver, (m) => ({
    partnerId: m.partnerId,
    merchantId: m.id,
  })),
  folding<Transaction, TransactionEvent>(
    TRANSACTION_STREAM_PREFIX,
    TRANSACTION_EVENT_TYPES,
    transactionEvolver,
    ofMerchant,
  ),
  folding<HppSession, HppSessionEvent>(
    HPP_SESSION_STREAM_PREFIX,
    HPP_SESSION_EVENT_TYPES,
    hppSessionEvolver,
    ofMerchant,
  ),
  folding<StoredCredential, StoredCredentialEvent>(
    STORED_CREDENTIAL_STREAM_PREFIX,
    STORED_CREDENTIAL_EVENT_TYPES,
    storedCredentialEvolver,
    ofMerchant,
  ),
  folding<Customer, CustomerEvent>(CUSTOMER_STREAM_PREFIX, CUSTOMER_EVENT_TYPES, customerEvolver, ofMerchant),
  folding<SettlementBatch, SettlementBatchEvent>(
    SETTLEMENT_BATCH_STREAM_PREFIX,
    SETTLEMENT_BATCH_EVENT_TYPES,
    settlementBatchEvolver,
    ofMerchant,
  ),
  folding<ReconciliationException, ReconciliationExceptionEvent>(
    RECONCILIATION_EXCEPTION_STREAM_PREFIX,
    RECONCILIATION_EXCEPTION_EVENT_TYPES,
    reconciliationExceptionEvolver,
    ofMerchant,
  ),
  folding<Terminal, TerminalEvent>(TERMINAL_STREAM_PREFIX, TERMINAL_EVENT_TYPES, terminalEvolver, ofMerchant),
  folding<Contract, ContractEvent>(CONTRACT_STREAM_PREFIX, CONTRACT_EVENT_TYPES, contractEvolver, ofMerchant),
];

export function sourceStreamOf(stream: string) {
  return WEBHOOK_SOURCE_STREAMS.find((source) => stream.startsWith(source.prefix)) ?? null;
}

/** What rendering needs besides the state: the hosted page's absolute URLs. */
export interface ObjectContext {
  hppUrls(sessionId: string): HppSessionUrls;
}

/** The resource a webhook type carries, from the aggregate state at the event. */
export function renderObject(
  kind: WebhookObjectKind,
  state: unknown,
  context: ObjectContext,
  at: Date,
): unknown {
  switch (kind) {
    case 'merchant':
      return toMerchantResource(state as Merchant);
    case 'custom_field_configuration': {
      const merchant = state as Merchant;
      return toCustomFieldConfiguration(merchant, merchant.customFields);
    }
    case 'transaction':
      return toTransactionResource(state as Transaction);
    case 'hpp_session': {
      const session = state as HppSession;
      return toSessionResource(session, context.hppUrls(session.id));
    }
    case 'stored_credential':
      return toStoredCredentialResource(state as StoredCredential);
    case 'customer':
      return toCustomerResource(state as Customer);
    case 'settlement_batch':
      return toBatchResource(state as SettlementBatch);
    case 'reconciliation_exception':
      return toReconciliationExceptionResource(state as ReconciliationException);
    case 'terminal':
      return toTerminalResource(state as Terminal);
    case 'contract':
      return toContractResource(state as Contract);
    case 'webhook_endpoint':
      return toWebhookEndpointResource(state as WebhookEndpoint, at);
  }
}

/** The envelope of every webhook (CONTRACT §6): the same bytes for every endpoint, attempt and replay. */
export const WebhookEnvelopeSchema = z
  .strictObject({
    id: z
      .string()
      .meta({ description: 'Stable across retries and replays: the receiver’s idempotency key.' }),
    type: z.string(),
    created_at: Timestamp,
    api_version: z.string(),
    partner_id: Uuid,
    merchant_id: Uuid.nullable(),
    data: z.strictObject({
      object: z.unknown().meta({ description: 'The resource the event type names, as the API answers it.' }),
    }),
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEnvelope = z.infer<typeof WebhookEnvelopeSchema>;

export function envelopeOf(
  id: string,
  type: string,
  createdAt: Date,
  owner: Owner,
  object: unknown,
): WebhookEnvelope {
  return {
    id,
    type,
    created_at: createdAt.toISOString(),
    api_version: CURRENT_API_VERSION,
    partner_id: owner.partnerId,
    merchant_id: owner.merchantId,
    data: { object },
  };
}
