import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src';
import { TransactionsModule } from '../../transactions/src';
import { RunSettlementBatchCommandHandler } from './application/settlement-batch-commands';
import { SettlementBatchReader } from './application/settlement-batch-reader';
import { SettlementRun } from './application/settlement-run';
import { PlatformSettlementController } from './http/platform-settlement.controller';

/** Settlement: the end-of-day run that settles transactions into per-merchant batches (`batch-{id}`). */
@Module({
  imports: [MerchantsModule, TransactionsModule],
  controllers: [PlatformSettlementController],
  providers: [RunSettlementBatchCommandHandler, SettlementBatchReader, SettlementRun],
  exports: [SettlementBatchReader],
})
export class SettlementModule {}
