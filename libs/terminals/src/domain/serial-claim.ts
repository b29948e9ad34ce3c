import { TerminalSerialNumberTaken } from './terminal-errors';

/**
 * Serial numbers are unique per merchant among terminals that are not decommissioned. Terminals
 * are separate streams, so the rule has a stream of its own: one per (merchant, serial number
 * without regard to case), `terminal_serial-{claimId}`, naming the terminal that holds it.
 * Registering a terminal claims its serial number first (an append that races like any other),
 * then creates the terminal (docs/terminals.md).
 *
 * A claim passes to a new terminal when its holder is decommissioned, or when its holder was
 * never created (its request failed between the claim and the create and was not retried) and
 * the claim is {@link ORPHANED_CLAIM_AFTER_SECONDS} old: long past any run that could still
 * create it, while a retry with the same Idempotency-Key finds its own claim at once.
 */
export const ORPHANED_CLAIM_AFTER_SECONDS = 3600;

export interface SerialClaim {
  claimId: string;
  merchantId: string;
  serialNumber: string;
  terminalId: string;
  claimedAt: string;
}

export interface TerminalSerialNumberClaimed {
  type: 'TerminalSerialNumberClaimed';
  data: {
    claimId: string;
    merchantId: string;
    partnerId: string;
    serialNumber: string;
    terminalId: string;
    /** The earlier holder this claim replaced (decommissioned or never created); null for the first. */
    replacedTerminalId: string | null;
    claimedAt: string;
  };
}

export type SerialClaimEvent = TerminalSerialNumberClaimed;

/** What became of the terminal that holds a claim, as the caller read it. */
export type ClaimHolderStatus = 'live' | 'decommissioned' | 'absent';

export interface ClaimTerminalSerialNumber {
  type: 'ClaimTerminalSerialNumber';
  claimId: string;
  merchantId: string;
  partnerId: string;
  serialNumber: string;
  terminalId: string;
  /** The holder of the claim when the caller looked; ignored if the claim has moved on since. */
  holder: { terminalId: string; status: ClaimHolderStatus } | null;
  at: Date;
}

export type SerialClaimStateOrNone = SerialClaim | null;

export function evolveSerialClaim(
  _claim: SerialClaimStateOrNone,
  event: SerialClaimEvent,
): SerialClaimStateOrNone {
  const { claimId, merchantId, serialNumber, terminalId, claimedAt } = event.data;
  return { claimId, merchantId, serialNumber, terminalId, claimedAt };
}

export const serialClaimEvolver = {
  initialState: (): SerialClaimStateOrNone => null,
  evolve: evolveSerialClaim,
};

/** Claims the serial number for `terminalId`, or 409 `terminal_serial_number_taken`. */
export function decideSerialClaim(
  command: ClaimTerminalSerialNumber,
  claim: SerialClaimStateOrNone,
): SerialClaimEvent[] {
  if (claim?.terminalId === command.terminalId) return []; // this terminal's own claim (a re-run)
  if (claim) {
    const status = command.holder?.terminalId === claim.terminalId ? command.holder.status : 'live';
    const orphaned =
      status === 'absent' &&
      command.at.getTime() - Date.parse(claim.claimedAt) >= ORPHANED_CLAIM_AFTER_SECONDS * 1000;
    if (status !== 'decommissioned' && !orphaned) {
      throw new TerminalSerialNumberTaken(command.serialNumber, claim.terminalId);
    }
  }
  return [
    {
      type: 'TerminalSerialNumberClaimed',
      data: {
        claimId: command.claimId,
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        serialNumber: command.serialNumber,
        terminalId: command.terminalId,
        replacedTerminalId: claim?.terminalId ?? null,
        claimedAt: command.at.toISOString(),
      },
    },
  ];
}
