import { SnapshotListProjector } from '../../libs/projections/src';
import {
  evolve,
  MERCHANT_STREAM_EVENT_TYPES,
  type Merchant,
  type MerchantStreamEvent,
  toMerchantListItem,
} from '../../libs/merchants/src';

/**
 * `merchant_list`: one row per merchant with the list form's columns (for `GET /merchants`, its
 * filters, and analysts).
 */
export class MerchantListProjector extends SnapshotListProjector<Merchant> {
  constructor() {
    super({
      name: 'merchant-list',
      table: 'merchant_list',
      eventTypes: MERCHANT_STREAM_EVENT_TYPES,
      streamPrefix: 'merchant-',
      evolve: (state, event) => evolve(state, event as MerchantStreamEvent),
      columns: (merchant) => {
        const item = toMerchantListItem(merchant);
        return {
          partner_id: item.partner_id,
          business_name: item.business_name,
          contact_email: item.contact_email,
          contact_name: item.contact_name,
          state: item.state,
          merchant_category_code: item.merchant_category_code,
          channel: item.channel,
          processor_mids: JSON.stringify(item.processor_mids),
          gateway_merchant_id: item.gateway_merchant_id,
          location_count: item.location_count,
          resubmission_count: item.resubmission_count,
          resubmission_limit: item.resubmission_limit,
          created_at: item.created_at,
          version: item.version,
        };
      },
    });
  }
}
