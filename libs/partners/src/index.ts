export * from './application/partner-commands';
export * from './domain/partner';
export * from './domain/partner-errors';
export * from './domain/partner-events';
export * from './domain/partner-stream';
export * from './domain/partner-transitions';
export * from './partners.module';
export { PartnerReader } from './application/partner-reader';
export { enabledFeatures } from './domain/configuration/configuration';
