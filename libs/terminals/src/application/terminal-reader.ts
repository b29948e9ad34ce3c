import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents, type RecordedEvent } from '../../../event-store/src';
import { serialClaimEvolver, type SerialClaim } from '../domain/serial-claim';
import { terminalEvolver, type Terminal } from '../domain/terminal';
import { TerminalNotFound } from '../domain/terminal-errors';
import { serialClaimStream, terminalStream } from '../domain/terminal-stream';

/**
 * One terminal, straight from its stream. Another partner's terminal reads exactly like one that
 * does not exist: 404 `terminal_not_found`.
 */
@Injectable()
export class TerminalReader {
  constructor(private readonly store: EventStore) {}

  history(terminalId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(terminalStream(terminalId));
  }

  /** The terminal as its events make it; null when the stream is empty. */
  async find(terminalId: string): Promise<Terminal | null> {
    return foldEvents(terminalEvolver, await this.history(terminalId));
  }

  /** The terminal if it is this partner's; otherwise terminal_not_found. */
  async getForPartner(terminalId: string, partnerId: string): Promise<Terminal> {
    const terminal = await this.find(terminalId);
    if (!terminal || terminal.partnerId !== partnerId) throw new TerminalNotFound(terminalId);
    return terminal;
  }

  /** Who holds a merchant's serial number (serial-claim.ts); null when nobody ever did. */
  async claim(claimId: string): Promise<SerialClaim | null> {
    return foldEvents(serialClaimEvolver, await this.store.readStream(serialClaimStream(claimId)));
  }
}
