export * from './domain/session';
export { HostedPagesModule } from './hosted-pages.module';
export { hppUrls } from './application/hpp-urls';
