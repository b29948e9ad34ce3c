import { Controller, Get, Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MerchantReader } from '../../../merchants/src';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { TransactionExport } from '../application/export-transactions';
import { TransactionList } from '../application/list-transactions';
import { toListItem } from '../application/transaction-list-sql';
import { TransactionSummaries } from '../application/transaction-summary';
import {
  filterScope,
  parseTransactionFilters,
  type TransactionFilters,
  type TransactionQueryKind,
} from '../wire/transaction-filters';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { TransactionListItemSchema } from '../domain/transaction-resource';
import { TransactionSummarySchema } from '../application/transaction-summary';
import { TRANSACTION_FILTER_DOCS } from '../wire/transaction-filters';

const LIST = 'transactions';

/**
 * The partner's transactions, read side (spec "Transactions": `GET /transactions`,
 * `/transactions/summary`, `/transactions/export`; filter names from CONTRACT §3). The three
 * share one set of filters and answer 400 `validation_error` for any bad, blank, repeated or
 * unknown parameter. `summary` and `export` are static paths, which the router matches before the
 * `/transactions/{id}` parameter route of TransactionsController whatever the registration order.
 */
@Controller('transactions')
export class TransactionQueriesController {
  constructor(
    private readonly lists: TransactionList,
    private readonly summaries: TransactionSummaries,
    private readonly exports: TransactionExport,
    private readonly merchants: MerchantReader,
    private readonly cursors: CursorCodec,
  ) {}

  /** A page of list items, newest first; the cursor is bound to the partner and the filters. */
  @Get()
  @PartnerRoute('transaction:read')
  @Describe({
    summary: 'The partner’s transactions, newest first (`amount` in integer minor units here)',
    response: pageOf(TransactionListItemSchema),
    query: TRANSACTION_FILTER_DOCS,
    paged: true,
    errors: [404],
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = await this.filters(query, 'list', caller);
    const scope = filterScope(caller.partnerId, filters);
    const page = pageRequest(query, this.cursors, LIST, scope);
    const { rows, total } = await this.lists.list(caller.partnerId, filters, page);
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      toListItem,
      (key) => this.cursors.encode(LIST, scope, key),
    );
  }

  /** KPIs over the filtered transactions (definitions: docs/transactions.md, "Summary"). */
  @Get('summary')
  @PartnerRoute('transaction:read')
  @Describe({
    summary: 'Counts and amounts over the filtered transactions',
    response: TransactionSummarySchema,
    query: TRANSACTION_FILTER_DOCS,
    errors: [404],
  })
  async summary(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = await this.filters(query, 'summary', caller);
    return this.summaries.summary(caller.partnerId, filters);
  }

  /** RFC 4180 CSV of every filtered transaction, streamed (no paging). */
  @Get('export')
  @PartnerRoute('transaction:read')
  @Describe({
    summary: 'Every filtered transaction as RFC 4180 CSV (streamed, no paging)',
    response: { mediaType: 'text/csv' },
    query: TRANSACTION_FILTER_DOCS,
    errors: [404],
  })
  async export(
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const filters = await this.filters(query, 'export', caller);
    const stream = await this.exports.export(caller.partnerId, filters);
    void reply.header('cache-control', 'no-store');
    return new StreamableFile(stream, {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="transactions.csv"',
    });
  }

  /**
   * The filters; a `merchant_id` that is not the caller's is 404 `merchant_not_found`, as on every
   * merchant-bound call (spec Authentication 4), not an empty answer.
   */
  private async filters(
    query: Record<string, unknown>,
    kind: TransactionQueryKind,
    caller: PartnerPrincipal,
  ): Promise<TransactionFilters> {
    const filters = parseTransactionFilters(query, kind);
    if (filters.merchantId) await this.merchants.getForPartner(filters.merchantId, caller.partnerId);
    return filters;
  }
}
