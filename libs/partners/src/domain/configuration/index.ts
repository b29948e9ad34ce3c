export * from './configuration';
export * from './configuration-decide';
export * from './configuration-errors';
export * from './configuration-events';
export * from './feature-flag-catalog';
export * from './partner-settings-validation';
