import { randomBytes } from 'node:crypto';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../../../../libs/platform/src/auth/access';
import { consolePage } from './console-page';
import { Describe } from '../../../../libs/platform/src/openapi/describe';

/**
 * `GET /api/v1/console`: the operator's read-only page (projection lag, a stream's history). The
 * page holds no data and no secret, so it is public; everything it shows comes from the operator
 * routes, called with the key the operator types. Its script and style run by nonce only, and it
 * may call nothing but this origin.
 */
@PublicRoute()
@Controller('console')
export class ConsoleController {
  @Get()
  @Describe({
    summary: 'The operator console: a read-only page (projection lag, a stream’s history)',
    description: 'The page holds no data; it calls the operator routes with the key the operator types.',
    response: { mediaType: 'text/html' },
    tag: 'Platform (operator)',
  })
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    const nonce = randomBytes(16).toString('base64');
    void reply.headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        "connect-src 'self'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    });
    return consolePage(nonce);
  }
}
