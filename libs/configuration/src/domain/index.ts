export * from './countries';
export * from './mcc-catalog';
export * from './us-states';
