import { Controller, Get, Query } from '@nestjs/common';
import { MerchantReader } from '../../../merchants/src';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { SettlementLists } from '../application/settlement-lists';
import { toReconciliationExceptionResource } from '../domain/reconciliation-exception-resource';
import { EXCEPTION_FILTERS, listScope } from '../wire/settlement-filters';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { ReconciliationExceptionSchema } from '../domain/reconciliation-exception-resource';

const LIST = 'settlement-exceptions';

/**
 * Reconciliation exceptions, read only for partners (spec "Settlement"): filters `merchant_id`,
 * `state`, `type`, `severity` (CONTRACT §3). An exception without a severity matches no severity
 * filter (spec). Newest first.
 */
@Controller('settlement/exceptions')
export class SettlementExceptionsController {
  constructor(
    private readonly lists: SettlementLists,
    private readonly merchants: MerchantReader,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @PartnerRoute('settlement:read')
  @Describe({
    summary: 'The partner’s reconciliation exceptions, newest first',
    response: pageOf(ReconciliationExceptionSchema),
    query: EXCEPTION_FILTERS,
    paged: true,
    errors: [404],
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = strictQuery(query, EXCEPTION_FILTERS);
    if (filters.merchant_id) await this.merchants.getForPartner(filters.merchant_id, caller.partnerId);
    const scope = listScope(caller.partnerId, filters);
    const page = pageRequest(query, this.cursors, LIST, scope);
    const { rows, total } = await this.lists.exceptions(
      caller.partnerId,
      {
        merchantId: filters.merchant_id,
        state: filters.state,
        type: filters.type,
        severity: filters.severity,
      },
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toReconciliationExceptionResource(row.snapshot),
      (key) => this.cursors.encode(LIST, scope, key),
    );
  }
}
