export * from './fee-eligibility';
export * from './fee-errors';
export * from './fee-events';
export * from './fee-pricing';
export * from './fee-validation';
export * from './fees';
export * from './fees-decide';
