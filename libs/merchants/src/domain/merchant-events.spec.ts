import {
  MERCHANT_EVENT_TYPES,
  MERCHANT_WEBHOOK_EVENT_TYPES,
  MERCHANT_WEBHOOK_TYPES,
} from './merchant-events';
import { merchantStream } from './merchant-stream';

describe('merchant events', () => {
  it('lists every event type once', () => {
    expect(MERCHANT_EVENT_TYPES).toHaveLength(21);
    expect(new Set(MERCHANT_EVENT_TYPES).size).toBe(21);
    for (const type of MERCHANT_EVENT_TYPES) expect(type).toMatch(/^Merchant[A-Z][A-Za-z]+$/);
  });

  it('maps each event to a listed merchant.* webhook type, and every webhook type is used', () => {
    const used = new Set(Object.values(MERCHANT_WEBHOOK_EVENT_TYPES));
    expect([...used].sort()).toEqual([...MERCHANT_WEBHOOK_TYPES].sort());
    for (const type of used) expect(type).toMatch(/^merchant\.[a-z_]+$/);
  });

  it('has dedicated webhook types for the moves partners act on', () =>
    expect(MERCHANT_WEBHOOK_EVENT_TYPES).toMatchObject({
      MerchantCreated: 'merchant.created',
      MerchantSubmitted: 'merchant.submitted',
      MerchantClarificationRequested: 'merchant.clarification_requested',
      MerchantSignatureDeclined: 'merchant.rejected',
      MerchantUnderwritingFailed: 'merchant.rejected',
      MerchantWentLive: 'merchant.live',
      MerchantSuspended: 'merchant.suspended',
      MerchantClosed: 'merchant.closed',
      MerchantReviewStarted: 'merchant.state_changed',
    }));

  it('names the stream merchant-{id}', () => expect(merchantStream('abc')).toBe('merchant-abc'));
});
