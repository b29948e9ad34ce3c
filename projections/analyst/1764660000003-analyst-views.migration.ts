import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The analysts' SQL (docs/analysts.md): views in schema `analyst` over the read models, read by
 * the read-only role `npm run ops -- sql` makes (apps/api/src/ops/read-only-role.ts grants it this
 * schema).
 *
 * Money is integer minor units of `currency`; ratios are `numeric` rounded to four places, never
 * floats. A rebuild of a read model swaps its tables and recreates these views and their grants
 * in the same transaction (libs/projections/src/shadow-tables.ts).
 */
/** Approved by the gateway (any state but waiting, declined or failed authentication). */
const APPROVED = `state not in ('INITIATED', 'THREE_DS_PENDING', 'FAILED', 'THREE_DS_FAILED')`;
/** A sale or ACH debit that moved money: approved and not voided (returns and disputes count: the money moved). */
const SALE = `type in ('SALE', 'ACH_DEBIT') and ${APPROVED} and state <> 'VOIDED'`;
const MONEY_BACK = `type in ('REFUND', 'PARTIAL_REFUND', 'ACH_REFUND', 'ACH_REVERSAL') and ${APPROVED}`;

const CARD_SALE = `type = 'SALE' and ${APPROVED} and state <> 'VOIDED'`;
const CARD_REFUND = `type in ('REFUND', 'PARTIAL_REFUND') and ${APPROVED}`;
const ACH_DEBIT = `type = 'ACH_DEBIT' and ${APPROVED} and state <> 'VOIDED'`;

export class AnalystViews1764660000003 implements MigrationInterface {
  name = 'AnalystViews1764660000003';

  async up(db: QueryRunner): Promise<void> {
    await db.query('create schema if not exists analyst');
    await db.query(`
      create view analyst.daily_volume as
      select partner_id, merchant_id, (created_at at time zone 'UTC')::date as day, currency,
             count(*) filter (where ${SALE}) as sales_count,
             coalesce(sum(total_minor) filter (where ${SALE}), 0) as sales_minor,
             count(*) filter (where ${MONEY_BACK}) as refunds_count,
             coalesce(sum(total_minor) filter (where ${MONEY_BACK}), 0) as refunds_minor,
             coalesce(sum(total_minor) filter (where ${SALE}), 0)
               - coalesce(sum(total_minor) filter (where ${MONEY_BACK}), 0) as net_minor
        from transaction_list
       group by partner_id, merchant_id, (created_at at time zone 'UTC')::date, currency`);
    await db.query(`
      create view analyst.settlement_vs_ledger as
      select b.id as batch_id, b.partner_id, b.merchant_id, b.settlement_date, b.state, b.currency,
             b.total_minor, b.fees_minor, b.net_minor,
             coalesce(l.settled_minor, 0) as ledger_settled_minor,
             coalesce(l.fees_minor, 0) as ledger_fees_minor,
             coalesce(l.paid_out_minor, 0) as ledger_paid_out_minor,
             b.total_minor - coalesce(l.settled_minor, 0) as settled_difference_minor,
             coalesce(b.fees_minor, 0) - coalesce(l.fees_minor, 0) as fees_difference_minor,
             case when b.state in ('RECONCILED', 'CLOSED_WITH_EXCEPTIONS') then b.net_minor else 0 end
               - coalesce(l.paid_out_minor, 0) as payout_difference_minor,
             b.total_minor = coalesce(l.settled_minor, 0)
               and coalesce(b.fees_minor, 0) = coalesce(l.fees_minor, 0)
               and (case when b.state in ('RECONCILED', 'CLOSED_WITH_EXCEPTIONS') then b.net_minor else 0 end)
                 = coalesce(l.paid_out_minor, 0) as agrees
        from settlement_batch_list b
        left join (
          select batch_id,
                 sum(amount_minor) filter (where kind = 'settlement' and account = 'settlement_clearing') as settled_minor,
                 -sum(amount_minor) filter (where kind = 'fees' and account = 'fees_revenue') as fees_minor,
                 sum(amount_minor) filter (where kind = 'payout' and account in ('merchant_payable', 'surcharge_payable', 'convenience_fee_payable')) as paid_out_minor
            from ledger_lines where batch_id is not null group by batch_id
        ) l on l.batch_id = b.id`);
    await db.query(`
      create view analyst.open_exceptions as
      select partner_id, coalesce(severity, 'NONE') as severity,
             case
               when now() - created_at < interval '1 day' then '0-1 days'
               when now() - created_at < interval '3 days' then '1-3 days'
               when now() - created_at < interval '7 days' then '3-7 days'
               else '7+ days'
             end as age,
             count(*) as exceptions, min(created_at) as oldest_created_at,
             count(distinct merchant_id) as merchants, count(distinct batch_id) as batches
        from reconciliation_exception_list
       where state in ('OPEN', 'ESCALATED')
       group by partner_id, coalesce(severity, 'NONE'), 3`);
    await db.query(`
      create view analyst.refund_return_ratios as
      select partner_id, merchant_id, currency,
             count(*) filter (where ${CARD_SALE}) as card_sales_count,
             coalesce(sum(total_minor) filter (where ${CARD_SALE}), 0) as card_sales_minor,
             count(*) filter (where ${CARD_REFUND}) as card_refunds_count,
             coalesce(sum(total_minor) filter (where ${CARD_REFUND}), 0) as card_refunds_minor,
             round(count(*) filter (where ${CARD_REFUND})::numeric
               / nullif(count(*) filter (where ${CARD_SALE}), 0), 4) as refund_count_ratio,
             round(coalesce(sum(total_minor) filter (where ${CARD_REFUND}), 0)::numeric
               / nullif(sum(total_minor) filter (where ${CARD_SALE}), 0), 4) as refund_amount_ratio,
             count(*) filter (where ${ACH_DEBIT}) as ach_debits_count,
             count(*) filter (where type = 'ACH_DEBIT' and state = 'RETURNED') as ach_returns_count,
             round(count(*) filter (where type = 'ACH_DEBIT' and state = 'RETURNED')::numeric
               / nullif(count(*) filter (where ${ACH_DEBIT}), 0), 4) as ach_return_ratio
        from transaction_list
       group by partner_id, merchant_id, currency`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('drop schema analyst cascade');
  }
}
