export * from './event-store';
export * from './errors';
export * from './handle-command';
export * from './aggregate';
export * from './aggregate-command';
export type { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store';
export { connectKurrentDb } from './kurrentdb/connect';
export { PostgresEventStore } from './postgres/postgres-event-store';
export * from './append-invalidated-cache';
