import { InvalidStateTransition } from '../../../platform/src/problem';
import {
  MERCHANT_OPERATOR_ACTIONS,
  MERCHANT_PARTNER_ACTIONS,
  MERCHANT_STATES,
  MERCHANT_TRANSITIONS,
  nextMerchantState,
} from './merchant-states';

describe('merchant transition table', () => {
  it('never uses the retired state names', () => {
    const everything = JSON.stringify({ MERCHANT_STATES, MERCHANT_TRANSITIONS });
    expect(everything).not.toContain('UNDER_REVIEW');
    expect(everything).not.toContain('BOOTSTRAP_FAILED');
  });

  it('has the fourteen spec states', () => expect(MERCHANT_STATES).toHaveLength(14));

  it('operator actions are exactly the fifteen of CONTRACT §2; with the partner actions they cover the table', () => {
    expect(MERCHANT_OPERATOR_ACTIONS).toHaveLength(15);
    expect([...MERCHANT_OPERATOR_ACTIONS, ...MERCHANT_PARTNER_ACTIONS].sort()).toEqual(
      Object.keys(MERCHANT_TRANSITIONS).sort(),
    );
  });

  it('reactivate returns to the remembered state', () =>
    expect(nextMerchantState('reactivate', 'SUSPENDED', { suspendedFrom: 'CONFIG_FAILED' })).toBe(
      'CONFIG_FAILED',
    ));

  it('reactivate without a remembered state is refused', () =>
    expect(() => nextMerchantState('reactivate', 'SUSPENDED', { suspendedFrom: null })).toThrow(
      InvalidStateTransition,
    ));

  it('in-place actions keep the state', () => {
    expect(nextMerchantState('update', 'AWAITING_CLARIFICATION', { suspendedFrom: null })).toBe(
      'AWAITING_CLARIFICATION',
    );
    expect(nextMerchantState('resend_envelope', 'AWAITING_MERCHANT_SIGNATURE', { suspendedFrom: null })).toBe(
      'AWAITING_MERCHANT_SIGNATURE',
    );
  });

  it('a refused move names the aggregate, the state and the action', () =>
    expect(() => nextMerchantState('suspend', 'DRAFT', { suspendedFrom: null })).toThrow(
      expect.objectContaining({
        code: 'invalid_state_transition',
        aggregate: 'merchant',
        from: 'DRAFT',
        action: 'suspend',
      }) as Error,
    ));
});
