import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  evolve,
  MERCHANT_STREAM_EVENT_TYPES,
  type Merchant,
  type MerchantStreamEvent,
  toMerchantListItem,
} from '../../libs/merchants/src';

/**
 * `merchant_list`: one row per merchant with the list form's columns (for `GET /merchants`, its
 * filters, and analysts), rebuilt by folding the aggregate's own `evolve` over a JSON snapshot,
 * so the list can never disagree with the merchant read.
 */
export class MerchantListProjector {
  readonly name = 'merchant-list';
  readonly eventTypes = MERCHANT_STREAM_EVENT_TYPES;
  readonly tables = ['merchant_list'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice('merchant-'.length);
    const rows = (await tx.query('select snapshot, created_position from merchant_list where id = $1', [
      id,
    ])) as {
      snapshot: Merchant;
      created_position: string;
    }[];
    const merchant = evolve(rows[0]?.snapshot ?? null, {
      type: recorded.type,
      data: recorded.data,
    } as MerchantStreamEvent);
    if (!merchant) return;
    const item = toMerchantListItem(merchant);
    await tx.query(
      `insert into merchant_list (id, partner_id, business_name, contact_email, contact_name, state,
         merchant_category_code, channel, processor_mids, gateway_merchant_id, location_count,
         resubmission_count, resubmission_limit, created_at, created_position, version, snapshot)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       on conflict (id) do update set
         business_name = excluded.business_name, contact_email = excluded.contact_email,
         contact_name = excluded.contact_name, state = excluded.state,
         merchant_category_code = excluded.merchant_category_code, channel = excluded.channel,
         processor_mids = excluded.processor_mids, gateway_merchant_id = excluded.gateway_merchant_id,
         location_count = excluded.location_count, resubmission_count = excluded.resubmission_count,
         resubmission_limit = excluded.resubmission_limit, version = excluded.version,
         snapshot = excluded.snapshot`,
      [
        item.id,
        item.partner_id,
        item.business_name,
        item.contact_email,
        item.contact_name,
        item.state,
        item.merchant_category_code,
        item.channel,
        JSON.stringify(item.processor_mids),
        item.gateway_merchant_id,
        item.location_count,
        item.resubmission_count,
        item.resubmission_limit,
        item.created_at,
        rows[0]?.created_position ?? recorded.globalPosition.toString(),
        item.version,
        JSON.stringify(merchant),
      ],
    );
  }
}
