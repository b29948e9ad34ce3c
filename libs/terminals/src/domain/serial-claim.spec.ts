import { deciderSpec } from '../../../../test/support/decider-spec';
import {
  decideSerialClaim,
  evolveSerialClaim,
  ORPHANED_CLAIM_AFTER_SECONDS,
  serialClaimEvolver,
  type ClaimHolderStatus,
  type ClaimTerminalSerialNumber,
  type SerialClaimEvent,
  type SerialClaimStateOrNone,
} from './serial-claim';
import { TerminalSerialNumberTaken } from './terminal-errors';

const given = deciderSpec<ClaimTerminalSerialNumber, SerialClaimStateOrNone, SerialClaimEvent>({
  decide: decideSerialClaim,
  evolve: evolveSerialClaim,
  initialState: serialClaimEvolver.initialState,
});

const CLAIM = '0c7a3b1e-5f2d-4e6a-9b8c-7d6e5f4a3b2c';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const FIRST = '11111111-1111-4111-8111-111111111111';
const SECOND = '22222222-2222-4222-8222-222222222222';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const claimedBy = (
  terminalId: string,
  replacedTerminalId: string | null = null,
  at = T0,
): SerialClaimEvent => ({
  type: 'TerminalSerialNumberClaimed',
  data: {
    claimId: CLAIM,
    merchantId: MERCHANT,
    partnerId: PARTNER,
    serialNumber: 'PAX-1',
    terminalId,
    replacedTerminalId,
    claimedAt: at.toISOString(),
  },
});

const claim = (
  terminalId: string,
  at = T0,
  holder: { terminalId: string; status: ClaimHolderStatus } | null = null,
): ClaimTerminalSerialNumber => ({
  type: 'ClaimTerminalSerialNumber',
  claimId: CLAIM,
  merchantId: MERCHANT,
  partnerId: PARTNER,
  serialNumber: 'pax-1',
  terminalId,
  holder,
  at,
});

describe('serial number claims', () => {
  it('a free serial number is claimed', () =>
    given([])
      .when(claim(FIRST))
      .then([{ ...claimedBy(FIRST), data: { ...claimedBy(FIRST).data, serialNumber: 'pax-1' } }]));

  it("a terminal's own claim again (a re-run) records nothing", () =>
    given([claimedBy(FIRST)])
      .when(claim(FIRST, later(5)))
      .then([]));

  it('a live holder keeps it: 409 terminal_serial_number_taken naming the holder', () =>
    given([claimedBy(FIRST)])
      .when(claim(SECOND, later(10 * ORPHANED_CLAIM_AFTER_SECONDS), { terminalId: FIRST, status: 'live' }))
      .thenThrows(TerminalSerialNumberTaken, { code: 'terminal_serial_number_taken', terminalId: FIRST }));

  it('a decommissioned holder gives it up at once', () =>
    given([claimedBy(FIRST)])
      .when(claim(SECOND, later(1), { terminalId: FIRST, status: 'decommissioned' }))
      .thenState((state, events) => {
        expect(events[0].data).toMatchObject({ terminalId: SECOND, replacedTerminalId: FIRST });
        expect(state?.terminalId).toBe(SECOND);
      }));

  it(`a holder never created gives it up only after ${ORPHANED_CLAIM_AFTER_SECONDS} s`, () => {
    const absent = { terminalId: FIRST, status: 'absent' as const };
    given([claimedBy(FIRST)])
      .when(claim(SECOND, later(ORPHANED_CLAIM_AFTER_SECONDS - 1), absent))
      .thenThrows(TerminalSerialNumberTaken);
    given([claimedBy(FIRST)])
      .when(claim(SECOND, later(ORPHANED_CLAIM_AFTER_SECONDS), absent))
      .thenState((state) => expect(state?.terminalId).toBe(SECOND));
  });

  it('what the caller saw of an earlier holder does not count once the claim has moved on', () =>
    given([claimedBy(FIRST), claimedBy(SECOND, FIRST)])
      .when(
        claim('33333333-3333-4333-8333-333333333333', later(1), {
          terminalId: FIRST,
          status: 'decommissioned',
        }),
      )
      .thenThrows(TerminalSerialNumberTaken, { terminalId: SECOND }));
});
