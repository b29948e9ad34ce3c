import { decide, type MerchantCommand } from './decide';
import { evolve, type Merchant, type MerchantStateOrNone } from './merchant';
import { toMerchantListItem, toMerchantResource } from './merchant-resource';

/** The spec's Merchant resource table, in its order. */
const SPEC_FIELDS = [
  'id',
  'partner_id',
  'business_name',
  'contact_email',
  'contact_name',
  'authorized_signer_name',
  'authorized_signer_email',
  'merchant_category_code',
  'state',
  'channel',
  'processor_mids',
  'gateway_merchant_id',
  'location_count',
  'business_state', // extension: the business location's state (surcharge rules)
  'hipaa_baa_status',
  'pci_saq_type',
  'clarification_message',
  'rejection_reason_code',
  'rejection_reason',
  'esign_envelope',
  'restriction_reason',
  'resubmission_count',
  'resubmission_limit',
  'submitted_at',
  'created_at',
  'version',
];
const SPEC_LIST_FIELDS = [
  'id',
  'partner_id',
  'business_name',
  'contact_email',
  'contact_name',
  'state',
  'merchant_category_code',
  'channel',
  'processor_mids',
  'gateway_merchant_id',
  'location_count',
  'resubmission_count',
  'resubmission_limit',
  'created_at',
  'version',
];

const ID = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');

function run(commands: MerchantCommand[]): Merchant {
  let state: MerchantStateOrNone = null;
  for (const command of commands) for (const event of decide(command, state)) state = evolve(state, event);
  return state as Merchant;
}

const live = run([
  {
    type: 'CreateMerchant',
    merchantId: ID,
    partnerId: PARTNER,
    businessName: 'Blue Bottle Dental',
    contactEmail: 'ops@bluebottle.test',
    contactName: 'Dana Dent',
    merchantCategoryCode: '8021',
    authorizedSignerName: 'Sam Signer',
    authorizedSignerEmail: 'sam@bluebottle.test',
    channel: 'CARD_PRESENT',
    locationCount: 2,
    hipaaBaaStatus: 'REQUIRED',
    at: T0,
  },
  { type: 'SubmitMerchant', merchantId: ID, at: T0 },
  { type: 'StartMerchantReview', merchantId: ID, at: T0 },
  { type: 'ApproveMerchantPrecheck', merchantId: ID, at: T0 },
  { type: 'ResendMerchantEnvelope', merchantId: ID, at: T1 },
  { type: 'CompleteMerchantSignature', merchantId: ID, at: T1 },
  { type: 'PassMerchantUnderwriting', merchantId: ID, at: T1 },
  { type: 'StartMerchantProvisioning', merchantId: ID, at: T1 },
  {
    type: 'CompleteMerchantProvisioning',
    merchantId: ID,
    processorMids: [{ processor: 'tsys', mid: '887000003193' }],
    gatewayMerchantId: 'gw_123',
    at: T1,
  },
  { type: 'TakeMerchantLive', merchantId: ID, gate: { checks: [] }, at: T1 },
  { type: 'SuspendMerchant', merchantId: ID, reason: 'risk review', at: T1 },
]);

describe('toMerchantResource', () => {
  it('has exactly the spec fields', () =>
    expect(Object.keys(toMerchantResource(live)).sort()).toEqual([...SPEC_FIELDS].sort()));

  it('maps every value', () =>
    expect(toMerchantResource(live)).toEqual({
      id: ID,
      partner_id: PARTNER,
      business_name: 'Blue Bottle Dental',
      contact_email: 'ops@bluebottle.test',
      contact_name: 'Dana Dent',
      authorized_signer_name: 'Sam Signer',
      authorized_signer_email: 'sam@bluebottle.test',
      merchant_category_code: '8021',
      state: 'SUSPENDED',
      channel: 'CARD_PRESENT',
      processor_mids: [{ processor: 'tsys', mid: '887000003193' }],
      gateway_merchant_id: 'gw_123',
      location_count: 2,
      business_state: null,
      hipaa_baa_status: 'REQUIRED',
      pci_saq_type: null,
      clarification_message: null,
      rejection_reason_code: null,
      rejection_reason: null,
      esign_envelope: {
        status: 'COMPLETED',
        sent_at: T1.toISOString(),
        last_status_at: T1.toISOString(),
        reissue_count: 1,
      },
      restriction_reason: 'risk review',
      resubmission_count: 0,
      resubmission_limit: 3,
      submitted_at: T0.toISOString(),
      created_at: T0.toISOString(),
      version: 11,
    }));

  it('is plain JSON (it survives a round trip unchanged)', () =>
    expect(JSON.parse(JSON.stringify(toMerchantResource(live)))).toEqual(toMerchantResource(live)));

  it('a new draft has a null envelope', () =>
    expect(toMerchantResource(run([liveCreate()])).esign_envelope).toBeNull());
});

function liveCreate(): MerchantCommand {
  return {
    type: 'CreateMerchant',
    merchantId: ID,
    partnerId: PARTNER,
    businessName: 'B',
    contactEmail: 'b@b.test',
    contactName: 'B',
    merchantCategoryCode: '5812',
    hipaaBaaStatus: 'NOT_REQUIRED',
    at: T0,
  };
}

describe('toMerchantListItem', () => {
  it('has exactly the spec list subset', () =>
    expect(Object.keys(toMerchantListItem(live)).sort()).toEqual([...SPEC_LIST_FIELDS].sort()));

  it('agrees with the full resource on every field it has', () => {
    const full = toMerchantResource(live) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(toMerchantListItem(live))) expect(value).toEqual(full[key]);
  });
});
