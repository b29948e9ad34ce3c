import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { EventStore, handleCommand, type EventMetadata, type RecordedEvent } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { ProjectionRunner } from '../../../projections/src';
import { decide, type HppSessionCommand } from '../domain/session/session-decide';
import { hppSessionEvolver, type HppSession, type HppSessionStateOrNone } from '../domain/session/session';
import { HppSessionNotFound } from '../domain/session/session-errors';
import { hppSessionStream, type HppSessionEvent } from '../domain/session/session-events';
import type { HppSessionUrls } from '../domain/session/session-resource';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A session command as callers give it: the store stamps `at` from the clock. */
export type HppSessionCommandInput = DistributiveOmit<HppSessionCommand, 'at'>;

export interface HppSessionResult {
  session: HppSession;
  events: HppSessionEvent[];
  /** Global position of the command's last event; null when nothing was appended. */
  position: bigint | null;
  alreadyApplied: boolean;
}

/** The read model the store waits for after a write (the expiry sweeper queries it). */
export const HPP_SESSION_LIST_PROJECTION = 'hpp-session-list';

/**
 * The page a payer opens (CONTRACT §4): `{base}/api/v1/hpp/{id}`, and the same page framed for an
 * iframe with `?mode=iframe`. The hosted page controller serves exactly these two URLs.
 */
export function hppUrls(publicBaseUrl: string, sessionId: string): HppSessionUrls {
  const hppUrl = `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/hpp/${sessionId}`;
  return { hppUrl, iframeUrl: `${hppUrl}?mode=iframe` };
}

/**
 * The session streams (`hpp_session-{id}`): read (fold) and write (decide + append with the
 * expected revision, retried on a race), then wait until `hpp-session-list` has the write so the
 * sweeper and any list see it at once.
 */
@Injectable()
export class HppSessionStore {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly projections: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async history(sessionId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(hppSessionStream(sessionId));
  }

  /** The session as its events make it; null when the stream is empty. */
  async find(sessionId: string): Promise<HppSession | null> {
    const events = await this.history(sessionId);
    return events.reduce<HppSessionStateOrNone>(
      (state, e) => hppSessionEvolver.evolve(state, { type: e.type, data: e.data } as HppSessionEvent),
      hppSessionEvolver.initialState(),
    );
  }

  /** The session if it is this partner's; otherwise 404 `hpp_session_not_found` (same answer). */
  async getForPartner(sessionId: string, partnerId: string): Promise<HppSession> {
    const session = await this.find(sessionId);
    if (!session || session.partnerId !== partnerId) throw new HppSessionNotFound(sessionId);
    return session;
  }

  async execute(command: HppSessionCommandInput, metadata: EventMetadata): Promise<HppSessionResult> {
    const at = this.clock.now();
    const result = await handleCommand<HppSessionStateOrNone, HppSessionEvent>(
      this.store,
      hppSessionStream(command.sessionId),
      hppSessionEvolver,
      (state) => decide({ ...command, at } as HppSessionCommand, state),
      metadata,
    );
    if (!result.state) throw new HppSessionNotFound(command.sessionId);
    if (result.position !== null) {
      await this.projections.waitFor(result.position, [HPP_SESSION_LIST_PROJECTION]);
    }
    return {
      session: result.state,
      events: result.events,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }

  /** `hpp_url` and `iframe_url` of a session, under the public base URL. */
  urls(sessionId: string): HppSessionUrls {
    return hppUrls(this.publicBaseUrl(), sessionId);
  }

  /**
   * `PUBLIC_BASE_URL`, or its default `http://HOST:PORT`. With `PORT=0` (any free port, as the
   * tests start the server) the default names port 0, which no browser can open: the port the
   * server actually bound takes its place.
   */
  publicBaseUrl(): string {
    const configured = this.config.publicBaseUrl;
    const url = new URL(configured);
    if (url.port !== '0') return configured;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as
      { address(): AddressInfo | string | null } | undefined;
    const address = server?.address();
    if (!address || typeof address === 'string') return configured;
    url.port = String(address.port);
    return url.toString().replace(/\/+$/, '');
  }
}
