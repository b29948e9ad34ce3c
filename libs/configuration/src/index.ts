export * from './domain';
export { ConfigurationModule } from './configuration.module';
