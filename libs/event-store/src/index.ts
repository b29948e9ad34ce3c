export * from './event-store';
export * from './errors';
