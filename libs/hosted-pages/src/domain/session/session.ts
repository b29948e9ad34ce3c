import type { HppSessionCreated, HppSessionEvent } from './session-events';
import type { HppSessionState } from './session-states';

/** The session as its events make it: plain JSON (the read model keeps it as a snapshot). */
export type HppSession = Omit<HppSessionCreated['data'], 'sessionId'> & {
  id: string;
  state: HppSessionState;
  failedAttempts: number;
  lastAttempt: { at: string; reason: string } | null;
  /** Cancelled by the card-testing defence (too many failed attempts), not by the partner. */
  lockedOut?: boolean;
  vaultToken: string | null;
  storedCredentialId: string | null;
  transactionId: string | null;
  /** The contract of the session's `recurring_plan`, once the payer's first submit opened it. */
  contractId?: string | null;
  card: Extract<HppSessionEvent, { type: 'HppSessionCompleted' }>['data']['card'];
  bank: Extract<HppSessionEvent, { type: 'HppSessionCompleted' }>['data']['bank'];
  /** null until completed. */
  tokenizationOutcome:
    Extract<HppSessionEvent, { type: 'HppSessionCompleted' }>['data']['tokenizationOutcome'] | null;
  tokenCaptureFailure: { at: string; reason: string } | null;
  completedAt: string | null;
  /** When it left PENDING (completed, cancelled, expired, or cancelled by the lockout); null while PENDING. */
  endedAt: string | null;
  version: number;
};

export type HppSessionStateOrNone = HppSession | null;

export const initialState = (): HppSessionStateOrNone => null;

/** At or after `expires_at` a session can no longer be used (the boundary instant is expired). */
export function isExpired(session: Pick<HppSession, 'expiresAt'>, now: Date): boolean {
  return now.getTime() >= Date.parse(session.expiresAt);
}

/** The state commands and reads see: a PENDING session past `expires_at` is EXPIRED. */
export function effectiveState(session: Pick<HppSession, 'state' | 'expiresAt'>, now: Date): HppSessionState {
  return session.state === 'PENDING' && isExpired(session, now) ? 'EXPIRED' : session.state;
}

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(session: HppSessionStateOrNone, event: HppSessionEvent): HppSessionStateOrNone {
  if (event.type === 'HppSessionCreated') {
    const { sessionId, ...rest } = event.data;
    return {
      ...rest,
      id: sessionId,
      state: 'PENDING',
      failedAttempts: 0,
      lastAttempt: null,
      vaultToken: null,
      storedCredentialId: null,
      transactionId: null,
      contractId: null,
      card: null,
      bank: null,
      tokenizationOutcome: null,
      tokenCaptureFailure: null,
      completedAt: null,
      endedAt: null,
      version: 1,
    };
  }
  if (!session) return session;
  const s: HppSession = { ...session, version: session.version + 1 };
  switch (event.type) {
    case 'HppSessionCancelled':
      return { ...s, state: 'CANCELLED', endedAt: event.data.cancelledAt };
    case 'HppSessionExpired':
      return { ...s, state: 'EXPIRED', endedAt: event.data.expiredAt };
    case 'HppSessionAttemptFailed':
      return {
        ...s,
        failedAttempts: event.data.count,
        lastAttempt: { at: event.data.failedAt, reason: event.data.reason },
      };
    case 'HppSessionContractLinked':
      return { ...s, contractId: event.data.contractId };
    case 'HppSessionLocked':
      return { ...s, state: 'CANCELLED', lockedOut: true, endedAt: event.data.lockedAt };
    case 'HppSessionCompleted': {
      const d = event.data;
      return {
        ...s,
        state: 'COMPLETED',
        vaultToken: d.vaultToken,
        storedCredentialId: d.storedCredentialId,
        transactionId: d.transactionId,
        card: d.card,
        bank: d.bank,
        tokenizationOutcome: d.tokenizationOutcome,
        tokenCaptureFailure: d.tokenCaptureFailure,
        ...(d.enteredPrice !== null && d.enteredPrice),
        completedAt: d.completedAt,
        endedAt: d.completedAt,
      };
    }
  }
}

export const hppSessionEvolver = { initialState, evolve };
