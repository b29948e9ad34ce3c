import { Module } from '@nestjs/common';
import { CustomersModule } from '../../customers/src';
import { MerchantsModule } from '../../merchants/src';
import { VaultModule } from '../../vault/src';
import { Charges } from './application/charge';
import { FollowUps } from './application/follow-up';
import { GatewayOutcomes } from './application/gateway-outcome';
import { TransactionSteps } from './application/transaction-steps';
import { TransactionExport } from './application/export-transactions';
import { TransactionList } from './application/list-transactions';
import { TransactionSummaries } from './application/transaction-summary';
import { RunTransactionCommandHandler } from './application/transaction-commands';
import { TransactionReader } from './application/transaction-reader';
import { TransactionSweeps } from './application/transaction-sweeps';
import { TransactionsController } from './http/transactions.controller';
import { PlatformSandboxTransactionsController } from './http/platform-sandbox-transactions.controller';
import { TransactionQueriesController } from './http/transaction-queries.controller';

/** Transactions: the payment command path (card and ACH), follow-ups, reads. */
@Module({
  imports: [MerchantsModule, CustomersModule, VaultModule],
  controllers: [TransactionsController, TransactionQueriesController, PlatformSandboxTransactionsController],
  providers: [
    RunTransactionCommandHandler,
    TransactionReader,
    TransactionSteps,
    GatewayOutcomes,
    Charges,
    FollowUps,
    TransactionList,
    TransactionSummaries,
    TransactionExport,
    TransactionSweeps,
  ],
  exports: [Charges, TransactionReader],
})
export class TransactionsModule {}
