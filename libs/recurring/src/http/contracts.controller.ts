import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { MerchantReader } from '../../../merchants/src';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { PlainText } from '../../../platform/src/validation/plain-text';
import { ContractList } from '../application/list-contracts';
import { ContractReader } from '../application/contract-reader';
import { PartnerContracts } from '../application/partner-contracts';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import {
  CONTRACT_STATES,
  ContractListItemSchema,
  ContractResourceSchema,
  toContractResource,
  type ContractResource,
} from '../domain';
import { ContractRequestSchema, ContractUpdateSchema, MAX_REASON_LENGTH } from '../wire/contract-request';

/** The optional body of pause, resume and cancel. */
class ContractActionDto {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_REASON_LENGTH)
  @PlainText()
  reason?: string;
}

const LIST = 'contracts';
const LIST_QUERY = {
  merchant_id: queryParam.uuid(),
  state: queryParam.oneOf(CONTRACT_STATES),
};

/**
 * Recurring contracts (spec "Recurring contracts", CONTRACT §8; rules in docs/recurring.md).
 * Every route needs `recurring_billing` (docs/feature-flags.md). A contract of another partner is
 * 404 `contract_not_found`, exactly like one that does not exist. Writes take `Idempotency-Key`.
 */
@Controller('contracts')
@RequiresFeature('recurring_billing')
export class ContractsController {
  constructor(
    private readonly contracts: PartnerContracts,
    private readonly reader: ContractReader,
    private readonly lists: ContractList,
    private readonly merchants: MerchantReader,
    private readonly cursors: CursorCodec,
  ) {}

  /** List items, newest first; filters `merchant_id` and `state` besides the page's parameters. */
  @Get()
  @PartnerRoute('contract:read')
  @Describe({
    summary: 'List contracts, newest first',
    response: pageOf(ContractListItemSchema),
    query: LIST_QUERY,
    paged: true,
    errors: [404],
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = strictQuery(query, LIST_QUERY);
    if (filters.merchant_id) await this.merchants.getForPartner(filters.merchant_id, caller.partnerId);
    const scope = `partner:${caller.partnerId}:merchant:${filters.merchant_id ?? '*'}:state:${filters.state ?? '*'}`;
    const page = pageRequest(query, this.cursors, LIST, scope);
    const { rows, total } = await this.lists.list(
      caller.partnerId,
      { merchantId: filters.merchant_id, state: filters.state },
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.key,
      (row) => row.item,
      (key) => this.cursors.encode(LIST, scope, key),
    );
  }

  /** 201 with the contract, ACTIVE, charging from `start_date`. */
  @Post()
  @PartnerRoute('contract:write')
  @Describe({
    summary: 'Create a contract on a saved payment method',
    description:
      'Born ACTIVE; charges on `start_date`, then every `interval` × `frequency`. An INSTALLMENT plan (a token scoped to INSTALLMENT, `number_of_payments`) needs the `installments` flag.',
    body: ContractRequestSchema,
    response: ContractResourceSchema,
    errors: [404, 422],
  })
  async create(
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return toContractResource(
      await this.contracts.create(metadataOf(request, caller.partnerId), caller, body),
    );
  }

  @Get(':contractId')
  @PartnerRoute('contract:read')
  @Describe({ summary: 'Read a contract', response: ContractResourceSchema })
  async read(@Param('contractId', UuidParam) contractId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return toContractResource(await this.reader.getForPartner(contractId, caller.partnerId));
  }

  /** `next_charge_date`, `end_date`, `reason` only; `amount`, `frequency`, `max_retries` are 422. */
  @Patch(':contractId')
  @PartnerRoute('contract:write')
  @Describe({
    summary: 'Move the next charge or the end date',
    body: ContractUpdateSchema,
    response: ContractResourceSchema,
    errors: [409, 422],
  })
  async update(
    @Param('contractId', UuidParam) contractId: string,
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return toContractResource(
      await this.contracts.update(metadataOf(request, caller.partnerId), caller, contractId, body),
    );
  }

  /** ACTIVE → PAUSED; 200 with the contract. */
  @Post(':contractId/pause')
  @HttpCode(200)
  @PartnerRoute('contract:write')
  @Describe({ summary: 'Pause an ACTIVE contract', response: ContractResourceSchema, errors: [409] })
  async pause(
    @Param('contractId', UuidParam) contractId: string,
    @Body() body: ContractActionDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, contractId, 'PauseContract', body);
  }

  /** PAUSED → ACTIVE; periods that fell due while paused are skipped. */
  @Post(':contractId/resume')
  @HttpCode(200)
  @PartnerRoute('contract:write')
  @Describe({
    summary: 'Resume a PAUSED contract',
    description: 'Periods that fell due while it was paused are skipped.',
    response: ContractResourceSchema,
    errors: [409],
  })
  async resume(
    @Param('contractId', UuidParam) contractId: string,
    @Body() body: ContractActionDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, contractId, 'ResumeContract', body);
  }

  /** PENDING_ACTIVATION, ACTIVE or PAUSED → CANCELLED. */
  @Post(':contractId/cancel')
  @HttpCode(200)
  @PartnerRoute('contract:write')
  @Describe({ summary: 'Cancel a contract', response: ContractResourceSchema, errors: [409] })
  async cancel(
    @Param('contractId', UuidParam) contractId: string,
    @Body() body: ContractActionDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, contractId, 'CancelContract', body);
  }

  private async act(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    contractId: string,
    action: 'PauseContract' | 'ResumeContract' | 'CancelContract',
    body: ContractActionDto,
  ): Promise<ContractResource> {
    const reason = body.reason?.trim() || null;
    const metadata = metadataOf(request, caller.partnerId);
    return toContractResource(await this.contracts.act(metadata, caller, contractId, action, reason));
  }
}
