import type { ReconciliationExceptionOrNone } from './reconciliation-exception';
import {
  ReconciliationExceptionInvalid,
  ReconciliationExceptionNotFound,
} from './reconciliation-exception-errors';
import type {
  ReconciliationExceptionEvent,
  ReconciliationExceptionOpened,
} from './reconciliation-exception-events';
import {
  nextExceptionState,
  RESOLUTION_ACTION,
  type OperatorResolution,
} from './reconciliation-exception-rules';

interface Base {
  exceptionId: string;
  at: Date;
}

/** The reconciliation (a report, the sweep) found a difference; the facts arrive as data. */
export interface OpenReconciliationException extends Base {
  type: 'OpenReconciliationException';
  data: Omit<ReconciliationExceptionOpened['data'], 'exceptionId' | 'openedAt'>;
}

/** An operator's decision (CONTRACT §2 resolve). */
export interface ResolveReconciliationException extends Base {
  type: 'ResolveReconciliationException';
  state: OperatorResolution;
  resolvedBy: string;
  resolution: string;
}

/** The difference went away (a later report, the money moved). */
export interface AutoResolveReconciliationException extends Base {
  type: 'AutoResolveReconciliationException';
  resolvedBy: string;
  resolution: string;
}

export type ReconciliationExceptionCommand =
  OpenReconciliationException | ResolveReconciliationException | AutoResolveReconciliationException;

/** At most this many characters of an operator's resolution note. */
export const RESOLUTION_MAX_LENGTH = 1000;

/** The exception's decisions. Pure: time and ids arrive with the command. */
export function decideException(
  command: ReconciliationExceptionCommand,
  exception: ReconciliationExceptionOrNone,
): ReconciliationExceptionEvent[] {
  const at = command.at.toISOString();
  const exceptionId = command.exceptionId;
  switch (command.type) {
    case 'OpenReconciliationException':
      nextExceptionState('open', exception?.state ?? null);
      return [
        { type: 'ReconciliationExceptionOpened', data: { ...command.data, exceptionId, openedAt: at } },
      ];
    case 'ResolveReconciliationException': {
      if (!exception) throw new ReconciliationExceptionNotFound(exceptionId);
      nextExceptionState(RESOLUTION_ACTION[command.state], exception.state);
      const resolution = noteOf(command.resolution);
      const { resolvedBy } = command;
      if (command.state === 'ESCALATED') {
        return [
          { type: 'ReconciliationExceptionEscalated', data: { exceptionId, resolvedBy, resolution, at } },
        ];
      }
      return [
        {
          type: 'ReconciliationExceptionResolved',
          data: { exceptionId, state: command.state, resolvedBy, resolution, at },
        },
      ];
    }
    case 'AutoResolveReconciliationException': {
      if (!exception) throw new ReconciliationExceptionNotFound(exceptionId);
      nextExceptionState('auto_resolve', exception.state);
      const { resolvedBy } = command;
      return [
        {
          type: 'ReconciliationExceptionAutoResolved',
          data: { exceptionId, resolvedBy, resolution: noteOf(command.resolution), at },
        },
      ];
    }
  }
}

/** A resolution is a non-blank note of at most {@link RESOLUTION_MAX_LENGTH} characters, trimmed. */
function noteOf(text: string): string {
  const note = text.trim();
  if (note === '' || [...note].length > RESOLUTION_MAX_LENGTH) {
    throw new ReconciliationExceptionInvalid(
      `a resolution is 1 to ${RESOLUTION_MAX_LENGTH} characters of text, not blank`,
    );
  }
  return note;
}
