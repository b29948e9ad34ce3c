export * from './card';
export * from './gateway';
export * from './sandbox/sandbox-gateway';
