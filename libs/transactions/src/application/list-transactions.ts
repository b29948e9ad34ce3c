import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { PageRequest } from '../../../platform/src/pagination/pagination';
import type { TransactionFilters } from '../wire/transaction-filters';
import {
  ALL_MERCHANTS,
  FROM,
  LIST_COLUMNS,
  countedByProjector,
  createdSpan,
  filterConditions,
  type TransactionPageRow,
} from './transaction-list-sql';

/** `GET /transactions`: the list and its search, on the `transaction_list` read model. */
@Injectable()
export class TransactionList {
  constructor(private readonly pool: Pool) {}

  /**
   * One page, newest first, and the total under the same filters, side by side on two
   * connections. The total is the true count: the projector's counter for the unfiltered and
   * merchant-only lists ({@link countedByProjector}), `count(*)` of the matching rows otherwise.
   * A created range also bounds the page by position ({@link createdSpan}).
   */
  async list(
    partnerId: string,
    filters: TransactionFilters,
    page: PageRequest,
  ): Promise<{ rows: TransactionPageRow[]; total: number }> {
    const { where, params } = filterConditions(partnerId, filters);
    const pageParams = [...params];
    const pageWhere = [...where];
    const span = createdSpan(filters, pageParams);
    if (span) pageWhere.push(...span.where);
    if (page.after !== null) pageWhere.push(`t.created_position < $${pageParams.push(page.after)}::bigint`);
    const limit = `$${pageParams.push(page.pageSize + 1)}`;
    const total = countedByProjector(filters)
      ? this.pool.query<{ count: string }>(
          `select coalesce((select c.count from transaction_list_counts c
                             where c.partner_id = $1 and c.merchant_id = $2), 0)::text as count`,
          [partnerId, filters.merchantId ?? ALL_MERCHANTS],
        )
      : this.pool.query<{ count: string }>(
          `select count(*)::text as count from transaction_list t where ${where.join(' and ')}`,
          params,
        );
    const [{ rows }, counted] = await Promise.all([
      this.pool.query<TransactionPageRow>(
        `${span?.with ?? ''} select ${LIST_COLUMNS} from ${FROM} where ${pageWhere.join(' and ')}
          order by t.created_position desc limit ${limit}`,
        pageParams,
      ),
      total,
    ]);
    return { rows, total: Number(counted.rows[0].count) };
  }
}
