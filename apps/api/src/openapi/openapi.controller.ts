import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../../../../libs/platform/src/auth/access';
import type { AppConfig } from '../../../../libs/platform/src/config/config';
import { APP_CONFIG } from '../../../../libs/platform/src/config/config.token';
import { CURRENT_API_VERSION } from '../../../../libs/platform/src/http/api-version';
import { Describe } from '../../../../libs/platform/src/openapi/describe';
import { API_PREFIX, buildOpenApiDocument } from '../../../../libs/platform/src/openapi/openapi-document';
import { discoverRoutes } from '../../../../libs/platform/src/openapi/route-discovery';
import { NotFound } from '../../../../libs/platform/src/problem';
import { referencePage, REFERENCE_INIT_SCRIPT } from './reference-page';

/**
 * Assets of the reference page, served from the npm package `swagger-ui-dist` (never a CDN):
 * name → file and media type. The page's own start-up script is ours.
 */
const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'init.js': { body: REFERENCE_INIT_SCRIPT, type: 'text/javascript; charset=utf-8' },
};

/**
 * `GET /api/v1/openapi.json`: the OpenAPI 3.1 document, built on first request from the routes
 * the app registered (docs/adr/0007-openapi-from-code.md) and kept; `GET /api/v1/docs`: a
 * reference page over it. Both are public, like the problem pages: they document the API and
 * hold no data.
 */
@PublicRoute()
@Controller()
export class OpenApiController {
  private document?: string;
  private readonly assets = new Map<string, Buffer | string>();

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'no-cache')
  @Describe({
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of every operation this deployment serves.',
    response: { mediaType: 'application/json', schema: { type: 'object' } },
    tag: 'Service',
  })
  openApi(): string {
    this.document ??= JSON.stringify(
      buildOpenApiDocument(discoverRoutes(this.modules), {
        serverUrl: API_PREFIX,
        apiVersion: CURRENT_API_VERSION,
        appEnv: this.config.appEnv,
      }),
    );
    return this.document;
  }

  @Get('docs')
  @Describe({
    summary: 'The API reference page',
    response: { mediaType: 'text/html' },
    tag: 'Service',
  })
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-security-policy': [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join('; '),
    });
    return referencePage();
  }

  @Get('docs/assets/:name')
  @Describe({
    summary: 'A file of the reference page',
    description: `One of ${Object.keys(ASSETS).join(', ')} (from the npm package swagger-ui-dist, or the page's own script).`,
    response: { mediaType: [...new Set(Object.values(ASSETS).map((asset) => asset.type.split(';')[0]))] },
    tag: 'Service',
  })
  asset(@Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer | string {
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new NotFound('not_found', `there is no asset ${name.slice(0, 64)}`);
    let content = this.assets.get(name);
    if (content === undefined) {
      content = asset.body ?? readFileSync(join(swaggerUiDirectory(), asset.file!));
      this.assets.set(name, content);
    }
    void reply.headers({
      'content-type': asset.type,
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
    return content;
  }
}

function swaggerUiDirectory(): string {
  return (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
}
