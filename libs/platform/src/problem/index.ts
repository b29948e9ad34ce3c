export * from './domain-error';
export * from './problem';
export * from './problem-status';
