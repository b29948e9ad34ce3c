export * from './card';
export * from './gateway';
export * from './sandbox/sandbox-gateway';
export * from './sandbox/test-cards';
