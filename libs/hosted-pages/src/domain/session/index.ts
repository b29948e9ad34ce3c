export * from './session';
export * from './session-decide';
export * from './session-errors';
export * from './session-events';
export * from './session-request';
export * from './session-resource';
export * from './session-states';
