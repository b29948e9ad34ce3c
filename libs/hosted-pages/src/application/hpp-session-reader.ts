import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents, type RecordedEvent } from '../../../event-store/src';
import { hppSessionEvolver, type HppSession } from '../domain/session/session';
import { HppSessionNotFound } from '../domain/session/session-errors';
import { hppSessionStream } from '../domain/session/session-events';

/** One session, straight from its stream (strongly consistent, unlike the list). */
@Injectable()
export class HppSessionReader {
  constructor(private readonly store: EventStore) {}

  history(sessionId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(hppSessionStream(sessionId));
  }

  /** The session as its events make it; null when the stream is empty. */
  async find(sessionId: string): Promise<HppSession | null> {
    return foldEvents(hppSessionEvolver, await this.history(sessionId));
  }

  /** The session if it is this partner's; otherwise 404 `hpp_session_not_found` (same answer). */
  async getForPartner(sessionId: string, partnerId: string): Promise<HppSession> {
    const session = await this.find(sessionId);
    if (!session || session.partnerId !== partnerId) throw new HppSessionNotFound(sessionId);
    return session;
  }
}
