export * from './event-store';
export * from './errors';
export * from './handle-command';
export * from './aggregate';
export * from './aggregate-command';
