export * from './event-store';
export * from './errors';
export * from './handle-command';
export * from './aggregate';
export * from './aggregate-command';
export { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store';
export { PostgresEventStore } from './postgres/postgres-event-store';
export * from './append-invalidated-cache';
