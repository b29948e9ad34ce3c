export * from './field-error';
export * from './nacha-return-codes';
export * from './banking-calendar';
export * from './decimal';
export * from './level-data';
export * from './reversal-reason';
export * from './refund-reason';
export * from './merchant-transactable';
