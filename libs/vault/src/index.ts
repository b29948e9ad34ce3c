export * from './application/card-vault';
export * from './domain';
