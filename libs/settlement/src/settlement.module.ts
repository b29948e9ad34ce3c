import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src';
import { TransactionsModule } from '../../transactions/src';
import { ExceptionResolutions } from './application/exception-resolutions';
import { ProcessorReports } from './application/processor-reports';
import { Reconciliation } from './application/reconciliation';
import { RunReconciliationExceptionCommandHandler } from './application/reconciliation-exception-commands';
import { ReconciliationExceptionReader } from './application/reconciliation-exception-reader';
import { ReconciliationSweep } from './application/reconciliation-sweep';
import { RunSettlementBatchCommandHandler } from './application/settlement-batch-commands';
import { SettlementBatchReader } from './application/settlement-batch-reader';
import { SettlementLists } from './application/settlement-lists';
import { SettlementRun } from './application/settlement-run';
import { PlatformReconciliationExceptionsController } from './http/platform-reconciliation-exceptions.controller';
import { PlatformSettlementBatchesController } from './http/platform-settlement-batches.controller';
import { PlatformSettlementController } from './http/platform-settlement.controller';
import { SettlementBatchesController } from './http/settlement-batches.controller';
import { SettlementExceptionsController } from './http/settlement-exceptions.controller';

/**
 * Settlement: the end-of-day run that settles transactions into per-merchant batches
 * (`batch-{id}`), the processor's reports and their reconciliation into exceptions
 * (`reconciliation_exception-{id}`), the reconciliation sweep, and the partner's reads.
 */
@Module({
  imports: [MerchantsModule, TransactionsModule],
  controllers: [
    PlatformSettlementController,
    PlatformSettlementBatchesController,
    PlatformReconciliationExceptionsController,
    SettlementBatchesController,
    SettlementExceptionsController,
  ],
  providers: [
    RunSettlementBatchCommandHandler,
    RunReconciliationExceptionCommandHandler,
    SettlementBatchReader,
    ReconciliationExceptionReader,
    SettlementRun,
    Reconciliation,
    ProcessorReports,
    ExceptionResolutions,
    ReconciliationSweep,
    SettlementLists,
  ],
  exports: [SettlementBatchReader, ReconciliationExceptionReader],
})
export class SettlementModule {}
