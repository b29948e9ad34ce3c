export * from './decide';
export * from './merchant';
export * from './merchant-errors';
export * from './merchant-events';
export * from './merchant-resource';
export * from './merchant-states';
export * from './merchant-stream';
export type { TransactionPrice } from './fees/fee-pricing';
export { customFieldValuesFormErrors } from './custom-fields/custom-field-values';
