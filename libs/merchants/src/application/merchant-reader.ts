import { Injectable } from '@nestjs/common';
import { EventStore, type RecordedEvent } from '../../../event-store/src';
import { evolve, initialState, type Merchant, type MerchantStreamEvent } from '../domain/merchant';
import { MerchantNotFound } from '../domain/merchant-errors';
import { merchantStream } from '../domain/merchant-stream';

/**
 * One merchant, straight from its stream. A merchant of another partner reads exactly like one
 * that does not exist: 404 `merchant_not_found` (spec Authentication, the two cases are
 * indistinguishable by design).
 */
@Injectable()
export class MerchantReader {
  constructor(private readonly store: EventStore) {}

  async history(merchantId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(merchantStream(merchantId));
  }

  async find(merchantId: string): Promise<Merchant | null> {
    const events = await this.history(merchantId);
    return events.reduce<Merchant | null>(
      (state, e) => evolve(state, { type: e.type, data: e.data } as MerchantStreamEvent),
      initialState(),
    );
  }

  /** The merchant if it is this partner's; otherwise merchant_not_found. */
  async getForPartner(merchantId: string, partnerId: string): Promise<Merchant> {
    const merchant = await this.find(merchantId);
    if (!merchant || merchant.partnerId !== partnerId) throw new MerchantNotFound(merchantId);
    return merchant;
  }

  async get(merchantId: string): Promise<Merchant> {
    const merchant = await this.find(merchantId);
    if (!merchant) throw new MerchantNotFound(merchantId);
    return merchant;
  }
}
