import { randomUUID } from 'node:crypto';
import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { RunPartnerCommand } from '../application/partner-commands';
import { PartnerReader } from '../application/partner-reader';
import {
  activeFlow,
  CERTIFICATION_CHECKS,
  currentRecertificationRequest,
  flowById,
  latestCompletedFlow,
  toFlowResource,
  toRecertificationRequestResource,
} from '../domain/certification';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { Describe } from '../../../platform/src/openapi/describe';
import {
  FlowResource,
  RecertificationRequestResource,
} from '../domain/certification/certification-resources';

/** The partner's certification ("Certification" in the spec). */
@Controller()
export class CertificationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly partners: PartnerReader,
  ) {}

  /** Creates the active flow (201) or returns the one already active (200). */
  @Post('partner/me/certification/prepare')
  @PartnerRoute('certification:write')
  @Describe({
    summary: 'Prepare certification: create the active flow, or return the one already active',
    response: FlowResource,
    otherResponses: { 200: { description: 'The flow already active', schema: FlowResource } },
  })
  async prepare(
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const flowId = idFor(request.commandId, 'certification-flow', randomUUID);
    const checkIds = Object.fromEntries(
      CERTIFICATION_CHECKS.map((check) => [
        check.checkCode,
        idFor(request.commandId, `certification-check:${check.checkCode}`, randomUUID),
      ]),
    );
    const result = await this.commands.execute(
      new RunPartnerCommand(
        { type: 'PrepareCertification', partnerId: caller.partnerId, flowId, checkIds },
        metadataOf(request),
      ),
    );
    const flow = activeFlow(result.state.certification);
    void reply.status(flow.id === flowId ? 201 : 200);
    return toFlowResource(flow);
  }

  @Get('partner/me/certification/recertification-requests/current')
  @PartnerRoute('certification:read')
  @Describe({
    summary: 'The current re-certification request',
    response: RecertificationRequestResource,
    errors: [404],
  })
  async currentRecertificationRequest(@CurrentPartner() caller: PartnerPrincipal) {
    const partner = await this.partners.get(caller.partnerId);
    return toRecertificationRequestResource(currentRecertificationRequest(partner.certification));
  }

  @Get('certification/flows/active')
  @PartnerRoute('certification:read')
  @Describe({ summary: 'The active certification flow', response: FlowResource, errors: [404] })
  async active(@CurrentPartner() caller: PartnerPrincipal) {
    return toFlowResource(activeFlow((await this.partners.get(caller.partnerId)).certification));
  }

  @Get('certification/flows/latest-completed')
  @PartnerRoute('certification:read')
  @Describe({ summary: 'The latest completed certification flow', response: FlowResource, errors: [404] })
  async latestCompleted(@CurrentPartner() caller: PartnerPrincipal) {
    return toFlowResource(latestCompletedFlow((await this.partners.get(caller.partnerId)).certification));
  }

  /** Flows live in the partner's own stream: another partner's flow id is simply not found. */
  @Get('certification/flows/:flowId')
  @PartnerRoute('certification:read')
  @Describe({ summary: 'Read a certification flow', response: FlowResource })
  async flow(@Param('flowId', UuidParam) flowId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return toFlowResource(flowById((await this.partners.get(caller.partnerId)).certification, flowId));
  }
}
