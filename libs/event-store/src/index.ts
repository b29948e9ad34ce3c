export * from './event-store';
export * from './errors';
export * from './handle-command';
