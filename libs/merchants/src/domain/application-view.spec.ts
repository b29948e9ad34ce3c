import { maskEmail, maskName, toApplicationView } from './application-view';
import type { Merchant } from './merchant';

describe('application view', () => {
  it('masks names, emails and bank numbers', () => {
    expect(maskName('Jamie  Rivera')).toBe('J. R.');
    expect(maskName('Zoë')).toBe('Z.');
    expect(maskEmail('owner@bluebottle.test')).toBe('o***@bluebottle.test');
    expect(maskEmail('nope')).toBe('***');
  });

  it('shows sections 2 to 5 with nothing personal in the clear', () => {
    const merchant = {
      id: 'm1',
      state: 'REVIEWING',
      submittedAt: '2026-11-01T00:00:00.000Z',
      businessName: 'Blue Bottle',
      merchantCategoryCode: '5812',
      channel: 'CNP_ONLY',
      locationCount: 1,
      businessState: 'NY',
      contactName: 'Jamie Rivera',
      contactEmail: 'jamie@bluebottle.test',
      authorizedSignerName: 'Sam Signer',
      authorizedSignerEmail: 'sam@bluebottle.test',
      hipaaBaaStatus: 'NOT_REQUIRED',
      pciSaqType: 'A',
      fees: { feeProfile: null, convenienceFee: null, surcharge: null },
      bank: {
        accountHolderName: 'Blue Bottle LLC',
        accountType: 'CHECKING',
        routingLast4: '0015',
        accountLast4: '6789',
        status: 'VERIFIED',
      },
    } as unknown as Merchant;
    const view = toApplicationView(merchant);
    expect(view.section_2_business).toMatchObject({
      business_name: 'Blue Bottle',
      merchant_category: expect.any(String),
    });
    expect(view.section_3_principals).toEqual({
      contact_name: 'J. R.',
      contact_email: 'j***@bluebottle.test',
      authorized_signer_name: 'S. S.',
      authorized_signer_email: 's***@bluebottle.test',
    });
    expect(view.section_5_banking).toEqual({
      account_holder_name: 'B. B. L.',
      account_type: 'CHECKING',
      routing_number: '*****0015',
      account_number: '****6789',
      verification_status: 'VERIFIED',
    });
    const text = JSON.stringify(view);
    for (const secret of ['Jamie', 'Rivera', 'sam@', 'Sam Signer', 'Blue Bottle LLC'])
      expect(text).not.toContain(secret);
  });
});
