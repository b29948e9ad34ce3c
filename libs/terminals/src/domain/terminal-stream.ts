/** Every terminal event lives on `terminal-{id}`. */
export const terminalStream = (terminalId: string): string => `terminal-${terminalId}`;

export const TERMINAL_STREAM_PREFIX = 'terminal-';

/** A merchant's claim on a serial number lives on `terminal_serial-{claimId}` (serial-claim.ts). */
export const serialClaimStream = (claimId: string): string => `terminal_serial-${claimId}`;
