export * from './configuration';
export * from './partner-events';
