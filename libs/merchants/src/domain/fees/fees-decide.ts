import { InvalidStateTransition } from '../../../../platform/src/problem';
import type { MerchantState } from '../merchant-states';
import { profileSurchargeCapBps, type FeeEligibility } from './fee-eligibility';
import {
  ConvenienceFeeMustBeFlat,
  ConvenienceFeeNotEligible,
  FeeRequestInvalid,
  SurchargeExceedsCap,
  SurchargeNotAllowedOnDebit,
  SurchargeNotEligible,
} from './fee-errors';
import type {
  ConvenienceFeeTerms,
  FeeProfileTerms,
  FeesEvent,
  MerchantConvenienceFeeSet,
  MerchantFeeProfileSet,
  MerchantSurchargeSet,
  SurchargeTerms,
} from './fee-events';
import { parseConvenienceFee, parseFeeProfile, parseSurcharge } from './fee-validation';
import type { FeesState } from './fees';

interface Base {
  merchantId: string;
  partnerId: string;
  /** The request body as parsed JSON; validated here. */
  body: unknown;
  at: Date;
}

/** `PUT /merchants/{merchantId}/fee-profile`. */
export interface SetFeeProfile extends Base {
  type: 'SetFeeProfile';
}

/** `PUT /merchants/{merchantId}/fee-settings/convenience-fee`. */
export interface SetConvenienceFee extends Base {
  type: 'SetConvenienceFee';
}

/** `PUT /merchants/{merchantId}/fee-settings/surcharge`. */
export interface SetSurcharge extends Base {
  type: 'SetSurcharge';
}

export type FeesCommand = SetFeeProfile | SetConvenienceFee | SetSurcharge;

/** Computed by the handler from the same fold of `merchant-{id}` and the partner's flags. */
export interface FeesContext {
  merchantState: MerchantState;
  eligibility: FeeEligibility;
}

/** The action names a refused CLOSED merchant reports in `invalid_state_transition`. */
export const FEES_ACTIONS = {
  SetFeeProfile: 'set_fee_profile',
  SetConvenienceFee: 'set_convenience_fee',
  SetSurcharge: 'set_surcharge',
} as const satisfies Record<FeesCommand['type'], string>;

/**
 * Decisions on a merchant's fees. Pure: the body arrives unvalidated, time with the command, the
 * merchant's state and its eligibility with the context. Order of refusals: 409 (CLOSED), 400
 * (body), then the 422 rules, so a malformed body never reveals eligibility. Setting what is
 * already set records nothing.
 */
export function decideFees(command: FeesCommand, state: FeesState, context: FeesContext): FeesEvent[] {
  if (context.merchantState === 'CLOSED') {
    throw new InvalidStateTransition('merchant', 'CLOSED', FEES_ACTIONS[command.type]);
  }
  switch (command.type) {
    case 'SetFeeProfile':
      return setFeeProfile(command, state);
    case 'SetConvenienceFee':
      return setConvenienceFee(command, state, context);
    case 'SetSurcharge':
      return setSurcharge(command, state, context);
  }
}

function setFeeProfile(command: SetFeeProfile, state: FeesState): MerchantFeeProfileSet[] {
  const parsed = parseFeeProfile(command.body);
  if (!parsed.ok) throw new FeeRequestInvalid(parsed.errors);
  const terms: FeeProfileTerms = parsed.value;
  // An enabled surcharge must stay within the cost of acceptance the new profile states.
  const surcharge = state.surcharge;
  if (surcharge?.enabled && surcharge.percentBps !== null) {
    const cap = profileSurchargeCapBps(terms);
    if (surcharge.percentBps > cap) throw new SurchargeExceedsCap(surcharge.percentBps, cap);
  }
  if (state.feeProfile && sameTerms(terms, withoutUpdatedAt(state.feeProfile))) return [];
  return [
    {
      type: 'MerchantFeeProfileSet',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        ...terms,
        setAt: command.at.toISOString(),
      },
    },
  ];
}

function setConvenienceFee(
  command: SetConvenienceFee,
  state: FeesState,
  context: FeesContext,
): MerchantConvenienceFeeSet[] {
  const parsed = parseConvenienceFee(command.body);
  if (!parsed.ok) throw new FeeRequestInvalid(parsed.errors);
  const request = parsed.value;
  if (request.amountType === 'PERCENT' && request.appliesTo.includes('card')) {
    throw new ConvenienceFeeMustBeFlat();
  }
  const eligibility = context.eligibility.convenience_fee;
  if (request.enabled && !eligibility.eligible) {
    throw new ConvenienceFeeNotEligible(command.merchantId, eligibility.reasons);
  }
  const terms: ConvenienceFeeTerms = {
    ...request,
    channels: request.enabled ? [...eligibility.channels] : [],
  };
  if (state.convenienceFee && sameTerms(terms, withoutUpdatedAt(state.convenienceFee))) return [];
  return [
    {
      type: 'MerchantConvenienceFeeSet',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        ...terms,
        setAt: command.at.toISOString(),
      },
    },
  ];
}

function setSurcharge(command: SetSurcharge, state: FeesState, context: FeesContext): MerchantSurchargeSet[] {
  const parsed = parseSurcharge(command.body);
  if (!parsed.ok) throw new FeeRequestInvalid(parsed.errors);
  const request = parsed.value;
  const notCredit = request.cardTypes.filter((type) => type !== 'credit');
  if (notCredit.length > 0) throw new SurchargeNotAllowedOnDebit(notCredit);
  if (request.enabled) {
    const eligibility = context.eligibility.surcharge;
    if (!eligibility.eligible) throw new SurchargeNotEligible(command.merchantId, eligibility.reasons);
    // The cap needs the cost of acceptance: the profile in this state, whatever eligibility saw.
    if (!state.feeProfile) throw new SurchargeNotEligible(command.merchantId, ['fee_profile_required']);
    const cap = Math.min(eligibility.max_percent_bps ?? 0, profileSurchargeCapBps(state.feeProfile));
    if (request.percentBps !== null && request.percentBps > cap) {
      throw new SurchargeExceedsCap(request.percentBps, cap);
    }
  }
  const terms: SurchargeTerms = {
    enabled: request.enabled,
    percentBps: request.percentBps,
    cardTypes: ['credit'],
  };
  if (state.surcharge && sameTerms(terms, withoutUpdatedAt(state.surcharge))) return [];
  return [
    {
      type: 'MerchantSurchargeSet',
      data: {
        merchantId: command.merchantId,
        partnerId: command.partnerId,
        ...terms,
        setAt: command.at.toISOString(),
      },
    },
  ];
}

function withoutUpdatedAt<T extends { updatedAt: string }>(value: T): Omit<T, 'updatedAt'> {
  const { updatedAt: _at, ...rest } = value;
  return rest;
}

/** Deep equality of plain JSON values, key order ignored. */
function sameTerms(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
