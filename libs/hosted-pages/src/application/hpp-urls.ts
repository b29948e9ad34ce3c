import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import type { HppSessionUrls } from '../domain/session/session-resource';

/**
 * The page a payer opens (CONTRACT §4): `{base}/api/v1/hpp/{id}`, and the same page framed for an
 * iframe with `?mode=iframe`. The hosted page controller serves exactly these two URLs.
 */
export function hppUrls(publicBaseUrl: string, sessionId: string): HppSessionUrls {
  const hppUrl = `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/hpp/${sessionId}`;
  return { hppUrl, iframeUrl: `${hppUrl}?mode=iframe` };
}

/**
 * The page's query string as the OpenAPI document states it: `mode=iframe` marks `iframe_url`.
 * The page reads nothing from it (the session's `rendering_mode` decides how it may be framed).
 */
export const HPP_PAGE_QUERY = {
  mode: {
    schema: { type: 'string', enum: ['iframe'] },
    description:
      'Present on `iframe_url`; the session’s `rendering_mode` decides how the page may be framed.',
  },
};

/** `hpp_url` and `iframe_url` of a session, under the deployment's public base URL. */
@Injectable()
export class HppUrls {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  of(sessionId: string): HppSessionUrls {
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
