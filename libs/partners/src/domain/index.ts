export type { FeatureNeed } from './configuration/feature-gate';
