export * from './decide';
export * from './settlement-batch';
export * from './settlement-batch-errors';
export * from './settlement-batch-events';
export * from './settlement-batch-resource';
export * from './settlement-batch-states';
export * from './settlement-rules';
