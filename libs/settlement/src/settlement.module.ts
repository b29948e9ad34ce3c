import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src/merchants.module';
import { TransactionsModule } from '../../transactions/src/transactions.module';
import { SettlementBatchStore } from './application/settlement-batch-store';
import { SettlementRun } from './application/settlement-run';
import { PlatformSettlementController } from './http/platform-settlement.controller';

/** Settlement: the end-of-day run that settles transactions into per-merchant batches (`batch-{id}`). */
@Module({
  imports: [MerchantsModule, TransactionsModule],
  controllers: [PlatformSettlementController],
  providers: [SettlementBatchStore, SettlementRun],
  exports: [SettlementBatchStore],
})
export class SettlementModule {}
