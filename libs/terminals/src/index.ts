export * from './domain';
export { TerminalsModule } from './terminals.module';
export { TerminalReader } from './application/terminal-reader';
export { TERMINAL_LIST } from './application/terminal-commands';
