import { runMerchantCommand } from './run-merchant-command';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { listSnapshots, narrowedBy } from '../../../platform/src/pagination/snapshot-list';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, idFor } from '../../../platform/src/http/request-metadata';
import { pagedList } from '../../../platform/src/http/paged-list';
import { CursorCodec } from '../../../platform/src/pagination/pagination';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { RecordWithFirstAppend } from '../../../platform/src/idempotency/idempotency.interceptor';
import { hipaaBaaStatusFor } from '../application/merchant-catalog';
import type { MerchantCommandInput } from '../application/merchant-commands';
import { MerchantReader } from '../application/merchant-reader';
import type { MerchantChanges } from '../domain/decide';
import type { Merchant } from '../domain/merchant';
import { toMerchantListItem, toMerchantResource } from '../domain/merchant-resource';
import { MERCHANT_STATES } from '../domain/merchant-states';
import {
  CreateMerchantDto,
  MCC_PATTERN,
  RespondClarificationDto,
  ResubmitDto,
  UpdateMerchantDto,
} from './merchant.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { MerchantListItemSchema, MerchantResourceSchema } from '../domain/merchant-resource';

/**
 * `GET /merchants` filters (spec "Merchants"): `state` a merchant state, `merchant_category_code`
 * four digits (exact match). Anything else, blank or repeated is 400 (strict-query.ts).
 */
const MERCHANT_LIST_QUERY = {
  state: queryParam.oneOf(MERCHANT_STATES),
  merchant_category_code: queryParam.matching(MCC_PATTERN, 'must be four digits'),
};

/** The partner's merchants ("Merchants" in the spec; submit from CONTRACT §3). */
@Controller('merchants')
export class MerchantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first; filters `state` and `merchant_category_code` (exact). */
  @Get()
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'The partner’s merchants, newest first',
    response: pageOf(MerchantListItemSchema),
    query: MERCHANT_LIST_QUERY,
    paged: true,
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = strictQuery(query, MERCHANT_LIST_QUERY);
    // The filters are named as the read model's columns.
    const { where, params } = narrowedBy(['partner_id = $1'], [caller.partnerId], filters);
    return pagedList(query, this.cursors, {
      list: 'merchants',
      scope: `partner:${caller.partnerId}:${filters.state ?? ''}:${filters.merchant_category_code ?? ''}`,
      rows: (page) => listSnapshots<Merchant>(this.pool, 'merchant_list', where, params, page),
      render: (row) => toMerchantListItem(row.snapshot),
    });
  }

  @Post()
  @PartnerRoute('merchant:write')
  @Describe({ summary: 'Create a merchant (DRAFT)', response: MerchantResourceSchema })
  @RecordWithFirstAppend()
  async create(
    @Body() body: CreateMerchantDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchantId = idFor(request.commandId, 'merchant', randomUUID);
    const merchant = await runMerchantCommand(
      this.commands,
      request,
      caller.partnerId,
      {
        type: 'CreateMerchant',
        merchantId,
        partnerId: caller.partnerId,
        businessName: body.business_name,
        contactEmail: body.contact_email,
        contactName: body.contact_name,
        merchantCategoryCode: body.merchant_category_code,
        authorizedSignerName: body.authorized_signer_name ?? null,
        authorizedSignerEmail: body.authorized_signer_email ?? null,
        channel: body.channel,
        locationCount: body.location_count ?? null,
        businessState: body.business_state ?? null,
        hipaaBaaStatus: hipaaBaaStatusFor(body.merchant_category_code),
      },
      // One commit: the record, MerchantCreated and this answer.
      toMerchantResource,
    );
    return toMerchantResource(merchant);
  }

  @Get(':merchantId')
  @PartnerRoute('merchant:read')
  @Describe({ summary: 'Read a merchant', response: MerchantResourceSchema })
  async read(@Param('merchantId', UuidParam) merchantId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return toMerchantResource(await this.merchants.getForPartner(merchantId, caller.partnerId));
  }

  /** Only in DRAFT and AWAITING_CLARIFICATION (CONTRACT §8); 409 otherwise. */
  @Patch(':merchantId')
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Change a merchant (DRAFT and AWAITING_CLARIFICATION only)',
    description: 'Only the fields given change.',
    response: MerchantResourceSchema,
    errors: [409],
  })
  async update(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: UpdateMerchantDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    const changes = {
      ...(body.business_name !== undefined && { businessName: body.business_name }),
      ...(body.contact_email !== undefined && { contactEmail: body.contact_email }),
      ...(body.contact_name !== undefined && { contactName: body.contact_name }),
      ...(body.authorized_signer_name !== undefined && { authorizedSignerName: body.authorized_signer_name }),
      ...(body.authorized_signer_email !== undefined && {
        authorizedSignerEmail: body.authorized_signer_email,
      }),
      ...(body.channel !== undefined && { channel: body.channel }),
      ...(body.location_count !== undefined && { locationCount: body.location_count }),
      ...(body.business_state !== undefined && { businessState: body.business_state }),
      ...(body.merchant_category_code !== undefined && {
        merchantCategoryCode: body.merchant_category_code,
        hipaaBaaStatus: hipaaBaaStatusFor(body.merchant_category_code),
      }),
    } as MerchantChanges;
    return toMerchantResource(
      await this.run(request, caller, { type: 'UpdateMerchant', merchantId, changes }),
    );
  }

  /** DRAFT → SUBMITTED (CONTRACT §3). */
  @Post(':merchantId/submit')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Submit a merchant for review (DRAFT → SUBMITTED)',
    response: MerchantResourceSchema,
    errors: [409, 422],
  })
  async submit(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toMerchantResource(await this.run(request, caller, { type: 'SubmitMerchant', merchantId }));
  }

  @Post(':merchantId/respond-clarification')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Answer a clarification request (back into review)',
    response: MerchantResourceSchema,
    errors: [409],
  })
  async respondClarification(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: RespondClarificationDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toMerchantResource(
      await this.run(request, caller, {
        type: 'RespondToMerchantClarification',
        merchantId,
        response: body.response,
      }),
    );
  }

  /** REJECTED → REVIEWING while `resubmission_count` < `resubmission_limit` (422 past it). */
  @Post(':merchantId/resubmit')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Resubmit a rejected merchant (within its resubmission limit)',
    response: MerchantResourceSchema,
    errors: [409, 422],
  })
  async resubmit(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: ResubmitDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toMerchantResource(
      await this.run(request, caller, {
        type: 'ResubmitMerchant',
        merchantId,
        message: body?.message ?? null,
      }),
    );
  }

  /** Only while AWAITING_MERCHANT_SIGNATURE; counts in `esign_envelope.reissue_count`. */
  @Post(':merchantId/envelope/resend')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Resend the signature envelope',
    response: MerchantResourceSchema,
    errors: [409, 422],
  })
  async resendEnvelope(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toMerchantResource(
      await this.run(request, caller, { type: 'ResendMerchantEnvelope', merchantId }),
    );
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    command: MerchantCommandInput,
  ): Promise<Merchant> {
    return runMerchantCommand(this.commands, request, caller.partnerId, command);
  }
}
