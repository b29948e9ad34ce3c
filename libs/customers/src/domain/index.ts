export * from './customer';
export * from './customer-errors';
export * from './customer-events';
export * from './customer-resource';
export * from './customer-rules';
export * from './customer-stream';
export * from './decide';
