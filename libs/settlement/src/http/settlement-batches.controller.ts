import { Controller, Get, Param, Query } from '@nestjs/common';
import { MerchantReader } from '../../../merchants/src';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { SettlementBatchReader } from '../application/settlement-batch-reader';
import { SettlementLists } from '../application/settlement-lists';
import { toBatchMemberResource, toBatchResource } from '../domain/settlement-batch-resource';
import { BATCH_FILTERS, listScope } from '../wire/settlement-filters';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { BatchMemberSchema, SettlementBatchSchema } from '../domain/settlement-batch-resource';

const LIST = 'settlement-batches';
const MEMBERS = 'settlement-batch-members';

/**
 * Settlement batches, read only for partners (spec "Settlement"): the list (filters
 * `merchant_id`, `state`), one batch (from its stream: strongly consistent), and its members.
 * Another partner's batch is 404 `settlement_batch_not_found`; another partner's merchant in the
 * filter is 404 `merchant_not_found`, as on every merchant-bound call.
 */
@Controller('settlement/batches')
export class SettlementBatchesController {
  constructor(
    private readonly batches: SettlementBatchReader,
    private readonly lists: SettlementLists,
    private readonly merchants: MerchantReader,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first; the cursor is bound to the partner and the filters. */
  @Get()
  @PartnerRoute('settlement:read')
  @Describe({
    summary: 'The partner’s settlement batches, newest first',
    response: pageOf(SettlementBatchSchema),
    query: BATCH_FILTERS,
    paged: true,
    errors: [404],
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = strictQuery(query, BATCH_FILTERS);
    if (filters.merchant_id) await this.merchants.getForPartner(filters.merchant_id, caller.partnerId);
    const scope = listScope(caller.partnerId, filters);
    const page = pageRequest(query, this.cursors, LIST, scope);
    const { rows, total } = await this.lists.batches(
      caller.partnerId,
      { merchantId: filters.merchant_id, state: filters.state },
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toBatchResource(row.snapshot),
      (key) => this.cursors.encode(LIST, scope, key),
    );
  }

  @Get(':batchId')
  @PartnerRoute('settlement:read')
  @Describe({ summary: 'Read a settlement batch', response: SettlementBatchSchema })
  async read(@Param('batchId', UuidParam) batchId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return toBatchResource(await this.batches.getForPartner(batchId, caller.partnerId));
  }

  /** The batch's members (spec "Batch member"), in the run's order. */
  @Get(':batchId/transactions')
  @PartnerRoute('settlement:read')
  @Describe({
    summary: 'A batch’s members, in the run’s order',
    response: pageOf(BatchMemberSchema),
    paged: true,
  })
  async members(
    @Param('batchId', UuidParam) batchId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    strictQuery(query, {});
    const batch = await this.batches.getForPartner(batchId, caller.partnerId);
    const scope = `partner:${caller.partnerId}:batch:${batchId}`;
    const page = pageRequest(query, this.cursors, MEMBERS, scope);
    const { rows, total } = await this.lists.members(batchId, page);
    return toPage(
      rows,
      page,
      total,
      (row) => row.key,
      (row) => toBatchMemberResource(row.member, batch.currency),
      (key) => this.cursors.encode(MEMBERS, scope, key),
    );
  }
}
