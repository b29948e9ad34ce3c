/** Injection token of the process's pino logger. */
export const LOGGER = Symbol('LOGGER');
