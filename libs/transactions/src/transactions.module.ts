import { Module } from '@nestjs/common';
import { CustomersModule } from '../../customers/src/customers.module';
import { MerchantsModule } from '../../merchants/src/merchants.module';
import { VaultModule } from '../../vault/src/vault.module';
import { Payments } from './application/payments';
import { TransactionStore } from './application/transaction-store';
import { TransactionsController } from './http/transactions.controller';

/** Transactions: the payment command path (card and ACH), follow-ups, reads. */
@Module({
  imports: [MerchantsModule, CustomersModule, VaultModule],
  controllers: [TransactionsController],
  providers: [Payments, TransactionStore],
  exports: [Payments, TransactionStore],
})
export class TransactionsModule {}
