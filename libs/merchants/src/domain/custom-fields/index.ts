export * from './custom-field-definition';
export * from './custom-field-errors';
export * from './custom-field-events';
export * from './custom-field-values';
export * from './custom-fields';
export * from './custom-fields-decide';
export * from './exact-decimal';
