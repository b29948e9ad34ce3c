export * from './configuration';
export * from './partner-events';
export type { FeatureNeed } from './configuration/feature-gate';
