export * from './application/card-vault';
export * from './domain';
export * from './application/stored-credential-commands.service';
export * from './application/stored-credential-reader';
export * from './vault.module';
