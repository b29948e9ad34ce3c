import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { RecordWithFirstAppend } from '../../../platform/src/idempotency/idempotency.interceptor';
import { HppSessions } from '../application/hpp-sessions.service';
import { Describe } from '../../../platform/src/openapi/describe';
import { HppSessionCreateSchema, HppSessionSchema } from '../domain/session/session-resource';
import { HppSessionRequestSchema } from '../domain/session/session-request';

/**
 * Hosted payment page sessions (spec "Hosted payment pages"; fields and rules in
 * docs/hosted-pages.md). Gated by the `hosted_payment_pages` flag; every POST takes an
 * Idempotency-Key. The page a payer opens is `hpp_url` (served by the hosted page controller).
 */
@Controller('hpp/sessions')
@RequiresFeature('hosted_payment_pages')
export class HppSessionsController {
  constructor(private readonly sessions: HppSessions) {}

  /** 201 with the create form. */
  @Post()
  @PartnerRoute('hpp_session:write')
  @Describe({
    summary: 'Create a hosted payment page session',
    description: 'Send the payer to `hpp_url`; completion is reported by the `hpp_session.completed` event.',
    body: HppSessionRequestSchema,
    response: HppSessionCreateSchema,
    errors: [404, 422, 501],
  })
  @RecordWithFirstAppend()
  async create(
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.sessions.create(metadataOf(request, caller.partnerId), caller, body);
  }

  @Get(':sessionId')
  @PartnerRoute('hpp_session:read')
  @Describe({ summary: 'Read a hosted payment page session', response: HppSessionSchema })
  async read(@Param('sessionId', UuidParam) sessionId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return this.sessions.read(sessionId, caller);
  }

  /** No body (one sent is ignored); 200 with the read form. */
  @Post(':sessionId/cancel')
  @HttpCode(200)
  @PartnerRoute('hpp_session:write')
  @Describe({ summary: 'Cancel a pending session', response: HppSessionSchema, errors: [409] })
  async cancel(
    @Param('sessionId', UuidParam) sessionId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.sessions.cancel(metadataOf(request, caller.partnerId), caller, sessionId);
  }
}
