export * from './domain';
export { SettlementBatchReader } from './application/settlement-batch-reader';
export { ReconciliationExceptionReader } from './application/reconciliation-exception-reader';
export {
  CANDIDATE_PAGE_SIZE,
  RUN_CONCURRENCY,
  SettlementRun,
  SETTLEABLE_SQL,
} from './application/settlement-run';
export { ReconciliationSweep } from './application/reconciliation-sweep';
export { SettlementModule } from './settlement.module';
