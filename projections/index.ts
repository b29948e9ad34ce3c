/**
 * Every read model of the service: its projector, entities and migrations. Adding a read model
 * means adding it here; the runner, the rebuild endpoint and `npm run ops -- rebuild` find it.
 */
import {
  PROJECTION_ENGINE_ENTITIES,
  PROJECTION_ENGINE_MIGRATIONS,
  type Projector,
} from '../libs/projections/src';
import type { DeliveryHandoff } from '../libs/webhooks/src';
import { PartnerList1763900000000 } from './partner-list/1763900000000-partner-list.migration';
import { PartnerListRow } from './partner-list/partner-list.entity';
import { PartnerListProjector } from './partner-list/partner-list.projector';
import { PartnerListCreatedPosition1764000000001 } from './partner-list/1764000000001-partner-list-created-position.migration';
import { PartnerAccess1764000000000 } from './partner-access/1764000000000-partner-access.migration';
import { PartnerAccessProjector } from './partner-access/partner-access.projector';
import { MerchantList1764100000000 } from './merchant-list/1764100000000-merchant-list.migration';
import { MerchantListProjector } from './merchant-list/merchant-list.projector';
import { CustomerList1764200000000 } from './customer-list/1764200000000-customer-list.migration';
import { CustomerListProjector } from './customer-list/customer-list.projector';
import { StoredCredentialList1764310000000 } from './stored-credential-list/1764310000000-stored-credential-list.migration';
import { StoredCredentialListProjector } from './stored-credential-list/stored-credential-list.projector';
import { TransactionList1764420000000 } from './transaction-list/1764420000000-transaction-list.migration';
import { TransactionListCounts1764420000001 } from './transaction-list/1764420000001-transaction-list-counts.migration';
import { TransactionListMoney1764420000002 } from './transaction-list/1764420000002-transaction-list-money.migration';
import { TransactionListSettleable1764420000003 } from './transaction-list/1764420000003-transaction-list-settleable.migration';
import { TransactionListSweeps1764420000004 } from './transaction-list/1764420000004-transaction-list-sweeps.migration';
import { TransactionListProjector } from './transaction-list/transaction-list.projector';
import { HppSessionList1764530000000 } from './hpp-session-list/1764530000000-hpp-session-list.migration';
import { HppSessionListProjector } from './hpp-session-list/hpp-session-list.projector';
import { TerminalList1764640000000 } from './terminal-list/1764640000000-terminal-list.migration';
import { TerminalListProjector } from './terminal-list/terminal-list.projector';
import { Webhooks1764650000000 } from './webhooks/1764650000000-webhooks.migration';
import { WebhooksProjector } from './webhooks/webhooks.projector';
import { SettlementBatchList1764660000000 } from './settlement-batch-list/1764660000000-settlement-batch-list.migration';
import { SettlementBatchListProjector } from './settlement-batch-list/settlement-batch-list.projector';
import { ReconciliationExceptionList1764660000001 } from './reconciliation-exception-list/1764660000001-reconciliation-exception-list.migration';
import { ReconciliationExceptionListProjector } from './reconciliation-exception-list/reconciliation-exception-list.projector';
import { Ledger1764660000002 } from './ledger/1764660000002-ledger.migration';
import { LedgerProjector } from './ledger/ledger.projector';
import { AnalystViews1764660000003 } from './analyst/1764660000003-analyst-views.migration';
import { ContractList1764670000000 } from './contract-list/1764670000000-contract-list.migration';
import { WebhookDue1764680000000 } from './webhooks/1764680000000-webhook-due.migration';
import { WebhookDeliveriesPositionKey1764680000001 } from './webhooks/1764680000001-webhook-deliveries-position-key.migration';
import { WebhookDeliveriesFillfactor1764680000002 } from './webhooks/1764680000002-webhook-deliveries-fillfactor.migration';
import { ContractListProjector } from './contract-list/contract-list.projector';

/** What a projector may need from the deployment's configuration. */
export interface ProjectorSettings {
  publicBaseUrl: string;
  webhookRetrySchedule: readonly number[];
  /** The process's webhook delivery worker, for the fresh deliveries of live batches. */
  deliveryHandoff?: DeliveryHandoff;
}

export const PROJECTORS: ((settings: ProjectorSettings) => Projector)[] = [
  () => new PartnerListProjector(),
  () => new PartnerAccessProjector(),
  () => new MerchantListProjector(),
  () => new CustomerListProjector(),
  () => new StoredCredentialListProjector(),
  () => new TransactionListProjector(),
  () => new HppSessionListProjector(),
  () => new TerminalListProjector(),
  (settings) =>
    new WebhooksProjector({
      publicBaseUrl: settings.publicBaseUrl,
      retrySchedule: settings.webhookRetrySchedule,
      handoff: settings.deliveryHandoff,
    }),
  () => new SettlementBatchListProjector(),
  () => new ReconciliationExceptionListProjector(),
  () => new LedgerProjector(),
  () => new ContractListProjector(),
];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
export const READ_MODEL_ENTITIES: Function[] = [...PROJECTION_ENGINE_ENTITIES, PartnerListRow];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for migration classes
export const READ_MODEL_MIGRATIONS: Function[] = [
  ...PROJECTION_ENGINE_MIGRATIONS,
  PartnerList1763900000000,
  PartnerAccess1764000000000,
  PartnerListCreatedPosition1764000000001,
  MerchantList1764100000000,
  CustomerList1764200000000,
  StoredCredentialList1764310000000,
  TransactionList1764420000000,
  TransactionListCounts1764420000001,
  TransactionListMoney1764420000002,
  TransactionListSettleable1764420000003,
  TransactionListSweeps1764420000004,
  HppSessionList1764530000000,
  TerminalList1764640000000,
  Webhooks1764650000000,
  SettlementBatchList1764660000000,
  ReconciliationExceptionList1764660000001,
  Ledger1764660000002,
  AnalystViews1764660000003,
  ContractList1764670000000,
  WebhookDue1764680000000,
  WebhookDeliveriesPositionKey1764680000001,
  WebhookDeliveriesFillfactor1764680000002,
];
