export * from './card';
export * from './gateway';
export * from './sandbox/sandbox-gateway';
export { PostgresSandboxMemory, type SandboxTransaction } from './sandbox/sandbox-memory';
export * from './sandbox/test-cards';
