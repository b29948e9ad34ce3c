export * from './domain';
export { SettlementBatchReader } from './application/settlement-batch-reader';
export { SettlementRun } from './application/settlement-run';
export { SettlementModule } from './settlement.module';
