export * from './mcc-catalog';
export * from './us-states';
export { ConfigurationModule } from './configuration.module';
