import { InvalidStateTransition } from '../../../platform/src/problem';
import { decideCompliance } from './compliance/compliance-decide';
import { isSaqType, SAQ_TYPES } from './compliance/saq-types';
import { goLiveChecks, toGoLiveGateResource, type GoLiveGateContext } from './go-live-gate';
import type { Merchant } from './merchant';

const merchant = (overrides: Partial<Merchant> = {}): Merchant =>
  ({
    id: 'm1',
    partnerId: 'p1',
    state: 'ACTIVE',
    pciSaqType: 'A',
    hipaaBaaStatus: 'NOT_REQUIRED',
    bank: { status: 'VERIFIED', failureReason: null },
    ...overrides,
  }) as Merchant;

const sandbox = { environment: 'sandbox' as const, partnerCertificationStatus: 'PENDING' };
const production = { environment: 'production' as const, partnerCertificationStatus: 'PENDING' };
const failing = (m: Merchant, ctx: GoLiveGateContext = sandbox) =>
  goLiveChecks(m, ctx)
    .filter((c) => !c.passed)
    .map((c) => c.code);

describe('go-live gate', () => {
  it('passes for an ACTIVE merchant with its SAQ type in sandbox', () => {
    expect(failing(merchant())).toEqual([]);
    expect(toGoLiveGateResource(merchant(), sandbox)).toMatchObject({ merchant_id: 'm1', ready: true });
  });

  it.each([
    [{ state: 'APPROVED' as const }, ['merchant_active']],
    [{ pciSaqType: null }, ['pci_saq_type_recorded']],
    [{ hipaaBaaStatus: 'REQUIRED' as const }, ['hipaa_baa_signed']],
    [{ bank: null }, ['bank_account_verified']],
    [
      { bank: { status: 'FAILED', failureReason: 'account not found' } as Merchant['bank'] },
      ['bank_account_verified'],
    ],
  ])('fails %p on %p', (overrides, codes) => {
    expect(failing(merchant(overrides))).toEqual(codes);
    expect(toGoLiveGateResource(merchant(overrides), sandbox).ready).toBe(false);
  });

  it('requires the partner CERTIFIED in production only', () => {
    expect(failing(merchant(), production)).toEqual(['partner_certified']);
    expect(failing(merchant(), { ...production, partnerCertificationStatus: 'CERTIFIED' })).toEqual([]);
  });
});

describe('SAQ type', () => {
  const at = new Date('2026-11-01T00:00:00Z');
  it('records a new SAQ type, nothing when unchanged, and nothing once CLOSED', () => {
    expect(
      decideCompliance({ type: 'RecordMerchantSaqType', merchantId: 'm1', saqType: 'D', at }, merchant()),
    ).toEqual([
      {
        type: 'MerchantSaqTypeRecorded',
        data: { merchantId: 'm1', partnerId: 'p1', saqType: 'D', recordedAt: at.toISOString() },
      },
    ]);
    expect(
      decideCompliance({ type: 'RecordMerchantSaqType', merchantId: 'm1', saqType: 'A', at }, merchant()),
    ).toEqual([]);
    expect(() =>
      decideCompliance(
        { type: 'RecordMerchantSaqType', merchantId: 'm1', saqType: 'D', at },
        merchant({ state: 'CLOSED' }),
      ),
    ).toThrow(InvalidStateTransition);
  });

  it('knows the PCI DSS v4 questionnaires', () => {
    expect(SAQ_TYPES.map((t) => t.code)).toEqual([
      'A',
      'A-EP',
      'B',
      'B-IP',
      'C',
      'C-VT',
      'P2PE',
      'SPoC',
      'D',
    ]);
    expect(isSaqType('A-EP')).toBe(true);
    expect(isSaqType('a')).toBe(false);
    expect(isSaqType(1)).toBe(false);
  });
});
