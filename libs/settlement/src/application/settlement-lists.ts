import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { listSnapshots } from '../../../platform/src/pagination/snapshot-list';
import type { PageRequest } from '../../../platform/src/pagination/pagination';
import type { ReconciliationException } from '../domain/reconciliation-exception';
import type { ExceptionState, ExceptionType, Severity } from '../domain/reconciliation-exception-rules';
import type { BatchMember, SettlementBatch } from '../domain/settlement-batch';
import type { SettlementBatchState } from '../domain/settlement-batch-states';

export interface BatchFilters {
  merchantId?: string;
  state?: SettlementBatchState;
}

export interface ExceptionFilters {
  merchantId?: string;
  state?: ExceptionState;
  type?: ExceptionType;
  /** Equality: an exception with no severity matches no severity. */
  severity?: Severity;
}

/** The conditions of a list: the partner's rows (every partner's for an operator: null), narrowed by each filter given. */
function conditions(
  partnerId: string | null,
  filters: Record<string, string | undefined>,
  columns: Record<string, string>,
) {
  const where = partnerId === null ? ['true'] : ['partner_id = $1'];
  const params: unknown[] = partnerId === null ? [] : [partnerId];
  for (const [name, column] of Object.entries(columns)) {
    const value = filters[name];
    if (value !== undefined) where.push(`${column} = $${params.push(value)}`);
  }
  return { where, params };
}

/**
 * The settlement lists (read models, eventually consistent; the writes wait for them): batches and
 * exceptions newest first on their creating event's position, a batch's members in the run's order.
 */
@Injectable()
export class SettlementLists {
  constructor(private readonly pool: Pool) {}

  batches(partnerId: string, filters: BatchFilters, page: PageRequest) {
    const { where, params } = conditions(
      partnerId,
      { ...filters },
      { merchantId: 'merchant_id', state: 'state' },
    );
    return listSnapshots<SettlementBatch>(this.pool, 'settlement_batch_list', where, params, page);
  }

  /** A partner's exceptions, or every partner's (`null`: the operator's console and list). */
  exceptions(
    partnerId: string | null,
    filters: ExceptionFilters & { partnerId?: string },
    page: PageRequest,
  ) {
    const { where, params } = conditions(
      partnerId,
      { ...filters },
      {
        merchantId: 'merchant_id',
        state: 'state',
        type: 'type',
        severity: 'severity',
        ...(partnerId === null ? { partnerId: 'partner_id' } : {}),
      },
    );
    return listSnapshots<ReconciliationException>(
      this.pool,
      'reconciliation_exception_list',
      where,
      params,
      page,
    );
  }

  /** One page of a batch's members, in the run's order (the cursor is the member's ordinal). */
  async members(
    batchId: string,
    page: PageRequest,
  ): Promise<{ rows: { member: BatchMember; key: string }[]; total: number }> {
    const after = page.after === null ? -1 : Number(page.after);
    const [{ rows }, count] = await Promise.all([
      this.pool.query<{
        ordinal: number;
        member_id: string;
        transaction_id: string;
        gateway_transaction_id: string | null;
        rail: BatchMember['rail'];
        type: BatchMember['type'];
        amount_minor: string;
        settled_at: Date;
        match_state: BatchMember['matchState'];
        reported_amount_minor: string | null;
      }>(
        `select ordinal, member_id, transaction_id, gateway_transaction_id, rail, type, amount_minor::text,
                settled_at, match_state, reported_amount_minor::text
           from settlement_batch_members where batch_id = $1 and ordinal > $2
          order by ordinal limit $3`,
        [batchId, after, page.pageSize + 1],
      ),
      this.pool.query<{ n: string }>(
        'select count(*)::text as n from settlement_batch_members where batch_id = $1',
        [batchId],
      ),
    ]);
    return {
      rows: rows.map((r) => ({
        key: String(r.ordinal),
        member: {
          memberId: r.member_id,
          transactionId: r.transaction_id,
          gatewayTransactionId: r.gateway_transaction_id,
          rail: r.rail,
          type: r.type,
          amountMinor: r.amount_minor,
          settledAt: r.settled_at.toISOString(),
          matchState: r.match_state,
          reportedAmountMinor: r.reported_amount_minor,
        },
      })),
      total: Number(count.rows[0].n),
    };
  }
}
