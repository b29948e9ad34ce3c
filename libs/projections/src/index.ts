import { ProjectionCheckpoint, ProjectionCheckpoints1763800000000 } from './checkpoint';

export * from './projector';
export * from './projection-runner';
export { ProjectionCheckpoint } from './checkpoint';

/** The engine's own table; every data source that runs projectors includes these. */
export const PROJECTION_ENGINE_ENTITIES = [ProjectionCheckpoint];
export const PROJECTION_ENGINE_MIGRATIONS = [ProjectionCheckpoints1763800000000];
