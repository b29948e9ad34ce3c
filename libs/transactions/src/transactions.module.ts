import { Module } from '@nestjs/common';
import { CustomersModule } from '../../customers/src';
import { MerchantsModule } from '../../merchants/src';
import { VaultModule } from '../../vault/src';
import { Payments } from './application/payments';
import { TransactionQueries } from './application/transaction-queries';
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
    Payments,
    TransactionQueries,
    TransactionSweeps,
  ],
  exports: [Payments, TransactionReader],
})
export class TransactionsModule {}
