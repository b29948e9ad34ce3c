export * from './decide';
export * from './stored-credential';
export * from './stored-credential-errors';
export * from './stored-credential-events';
export * from './stored-credential-resource';
export * from './stored-credential-states';
export * from './stored-credential-stream';
export * from './vault-token';
