export * from './application/card-vault';
export * from './domain';
export * from './application/stored-credential-commands';
export * from './application/stored-credential-reader';
export * from './vault.module';
