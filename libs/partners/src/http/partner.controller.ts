import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { CertificationFacts } from '../application/certification-facts';
import { PartnerReader } from '../application/partner-reader';
import { toCapabilities, toPartnerResource } from '../application/partner-resources';
import { partnerTransitions } from '../application/partner-transitions-view';
import { PartnerNotFound } from '../domain/partner-errors';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { Describe } from '../../../platform/src/openapi/describe';
import { listOf } from '../../../platform/src/openapi/wire-schemas';
import { CapabilitiesResource, PartnerResource } from '../application/partner-resources';
import { PartnerTransitionResource } from '../application/partner-transitions-view';

/** The partner's own identity and capabilities ("Partner and capabilities" in the spec). */
@Controller()
export class PartnerController {
  constructor(
    private readonly partners: PartnerReader,
    private readonly facts: CertificationFacts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Also the lightweight "does my key work" check (spec Authentication rule 7). */
  @Get('partner/me')
  @PartnerRoute('partner:read')
  @Describe({
    summary: 'The partner this key belongs to',
    description: 'Also the lightweight check that a key works (no merchant, no instrument).',
    response: PartnerResource,
  })
  async me(@CurrentPartner() caller: PartnerPrincipal, @Req() request: FastifyRequest) {
    // Certification evidence: the partner authenticated and read its identity (recorded once).
    const partner = await this.facts.observe(
      await this.partners.get(caller.partnerId),
      'PARTNER_IDENTITY_READ',
      metadataOf(request, caller.partnerId),
    );
    return toPartnerResource(partner, this.config.appEnv, await this.partners.liveMerchantCount(partner.id));
  }

  @Get('capabilities')
  @PartnerRoute('partner:read')
  @Describe({
    summary: 'What the key may do: certification status and enabled features',
    response: CapabilitiesResource,
  })
  async capabilities(@CurrentPartner() caller: PartnerPrincipal) {
    return toCapabilities(await this.partners.get(caller.partnerId));
  }

  @Get('iam/partners/:id')
  @PartnerRoute('partner:read')
  @Describe({
    summary: 'Read a partner (only the caller’s own id; another is 404)',
    response: PartnerResource,
  })
  async partner(@Param('id', UuidParam) id: string, @CurrentPartner() caller: PartnerPrincipal) {
    const partner = await this.own(id, caller);
    return toPartnerResource(partner, this.config.appEnv, await this.partners.liveMerchantCount(partner.id));
  }

  /** The partner's state history, from its stream (shape in docs/partners.md). */
  @Get('iam/partners/:id/transitions')
  @PartnerRoute('partner:read')
  @Describe({
    summary: 'The partner’s state and certification history, oldest first',
    response: listOf(PartnerTransitionResource),
  })
  async transitions(
    @Param('id', UuidParam) id: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    // Read whole: a filter or page asked for is refused, never answered with the whole history.
    strictQuery(query, {}, { paged: false });
    await this.own(id, caller);
    return { data: partnerTransitions(await this.partners.history(id)) };
  }

  /** Another partner's id reads exactly like an id that does not exist. */
  private async own(id: string, caller: PartnerPrincipal) {
    if (id !== caller.partnerId) throw new PartnerNotFound(id);
    return this.partners.get(id);
  }
}
