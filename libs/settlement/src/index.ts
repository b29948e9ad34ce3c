export * from './domain';
export { SettlementBatchStore } from './application/settlement-batch-store';
export { SettlementRun } from './application/settlement-run';
export { SettlementModule } from './settlement.module';
