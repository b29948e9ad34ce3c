import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { PageRequest } from '../../../platform/src/pagination/pagination';
import { toContractListItem, type Contract, type ContractListItem, type ContractState } from '../domain';

export interface ContractFilters {
  merchantId?: string;
  state?: ContractState;
}

/**
 * `GET /contracts`: one partner's contracts from `contract_list`, newest first, with the
 * merchant's current name from `merchant_list` (a renamed merchant shows its new name on every
 * contract without rewriting them).
 */
@Injectable()
export class ContractList {
  constructor(private readonly pool: Pool) {}

  async list(
    partnerId: string,
    filters: ContractFilters,
    page: PageRequest,
  ): Promise<{ rows: { item: ContractListItem; key: string }[]; total: number }> {
    const params: unknown[] = [partnerId];
    const where = ['c.partner_id = $1'];
    if (filters.merchantId) where.push(`c.merchant_id = $${params.push(filters.merchantId)}`);
    if (filters.state) where.push(`c.state = $${params.push(filters.state)}`);
    const filter = where.join(' and ');
    const pageParams = [...params];
    const pageWhere = [filter];
    if (page.after !== null) pageWhere.push(`c.created_position < $${pageParams.push(page.after)}`);
    const limit = `$${pageParams.push(page.pageSize + 1)}`;
    const [{ rows }, count] = await Promise.all([
      this.pool.query<{ snapshot: Contract; key: string; merchant_name: string | null }>(
        `select c.snapshot, c.created_position::text as key, m.business_name as merchant_name
           from contract_list c left join merchant_list m on m.id = c.merchant_id
          where ${pageWhere.join(' and ')}
          order by c.created_position desc limit ${limit}`,
        pageParams,
      ),
      this.pool.query<{ count: string }>(
        `select count(*)::text as count from contract_list c where ${filter}`,
        params,
      ),
    ]);
    return {
      rows: rows.map((row) => ({ item: toContractListItem(row.snapshot, row.merchant_name), key: row.key })),
      total: Number(count.rows[0].count),
    };
  }
}
