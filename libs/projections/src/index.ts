import { ProjectionCheckpoints1763800000000 } from './1763800000000-projection-checkpoints.migration';
import { ProjectionCheckpoint } from './projection-checkpoint.entity';

export * from './projector';
export * from './projection-runner';
export { UnknownProjection, RebuildInProgress, RebuildAborted, PoisonEvent } from './errors';
export { ProjectionCheckpoint } from './projection-checkpoint.entity';
export { ProjectionCheckpoints1763800000000 } from './1763800000000-projection-checkpoints.migration';

/** The engine's own table; every data source that runs projectors includes these. */
export const PROJECTION_ENGINE_ENTITIES = [ProjectionCheckpoint];
export const PROJECTION_ENGINE_MIGRATIONS = [ProjectionCheckpoints1763800000000];
export * from './snapshot-list-projector';
export { AppendListener } from './append-listener';
export { Alarm } from './alarm';
