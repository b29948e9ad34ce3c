export * from './domain/session';
export { HostedPagesModule } from './hosted-pages.module';
