/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const MERCHANT_FIELDS = [
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
  'business_state',
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

describe('merchants: onboarding through the partner and operator APIs', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  beforeAll(async () => {
    partner = await platform().newPartner();
  });

  const create = (p: TestPartner, body: Record<string, unknown> = {}) =>
    p.client.post('/merchants', {
      business_name: 'Blue Bottle Cafe',
      contact_email: 'owner@bluebottle.test',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '5812',
      ...body,
    });
  const operator = (merchantId: string, action: string, extra: Record<string, unknown> = {}) =>
    platform().operator.post(`/platform/merchants/${merchantId}/transitions`, { action, ...extra });
  const walk = async (merchantId: string, actions: string[]) => {
    let last: any;
    for (const action of actions) {
      last = await operator(merchantId, action);
      expect([action, last.status, last.body.code]).toEqual([action, 200, undefined]);
    }
    return last.body;
  };

  it('creates a merchant in DRAFT with every spec field, and reads it back', async () => {
    const res = await create(partner, {
      authorized_signer_name: 'Jamie Rivera',
      authorized_signer_email: 'jamie@bluebottle.test',
      channel: 'OMNICHANNEL',
      location_count: 2,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...MERCHANT_FIELDS].sort());
    expect(res.body).toMatchObject({
      id: expect.stringMatching(UUID),
      partner_id: partner.id,
      state: 'DRAFT',
      channel: 'OMNICHANNEL',
      location_count: 2,
      hipaa_baa_status: 'NOT_REQUIRED',
      processor_mids: [],
      resubmission_count: 0,
      resubmission_limit: 3,
      submitted_at: null,
      esign_envelope: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 1,
    });
    const read = await partner.client.get(`/merchants/${res.body.id}`);
    expect(read.body).toEqual(res.body);
    // A healthcare MCC needs a BAA.
    expect((await create(partner, { merchant_category_code: '8011' })).body.hipaa_baa_status).toBe(
      'REQUIRED',
    );
  });

  it('refuses bad input with 400 naming each field', async () => {
    expectValidationError(await partner.client.post('/merchants', {}), [
      'business_name',
      'contact_email',
      'contact_name',
      'merchant_category_code',
    ]);
    expectValidationError(await create(partner, { merchant_category_code: '58' }), [
      'merchant_category_code',
    ]);
    expectValidationError(await create(partner, { merchant_category_code: '0000' }), [
      'merchant_category_code',
    ]);
    expectValidationError(await create(partner, { contact_email: 'nope' }), ['contact_email']);
    expectValidationError(await create(partner, { channel: 'ONLINE' }), ['channel']);
    expectValidationError(await create(partner, { location_count: '2' }), ['location_count']);
    expectValidationError(await create(partner, { state: 'LIVE' }), ['state']);
  });

  it('PATCH changes only the given fields, in DRAFT; null is refused; after submit it is 409', async () => {
    const { body: merchant } = await create(partner);
    const patched = await partner.client.patch(`/merchants/${merchant.id}`, {
      business_name: 'Blue Bottle Coffee',
      merchant_category_code: '8011',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      business_name: 'Blue Bottle Coffee',
      contact_name: 'Jamie Rivera',
      merchant_category_code: '8011',
      hipaa_baa_status: 'REQUIRED',
      version: 2,
    });
    expectValidationError(await partner.client.patch(`/merchants/${merchant.id}`, { business_name: null }), [
      'business_name',
    ]);
    const submitted = await partner.client.post(`/merchants/${merchant.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      state: 'SUBMITTED',
      submitted_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expectProblem(
      await partner.client.patch(`/merchants/${merchant.id}`, { business_name: 'Late' }),
      409,
      'invalid_state_transition',
    );
    expectProblem(
      await partner.client.post(`/merchants/${merchant.id}/submit`),
      409,
      'invalid_state_transition',
    );
  });

  it('walks a merchant from DRAFT to LIVE, and the list and partner show it', async () => {
    const { body: merchant } = await create(partner, { business_name: 'Live Cafe' });
    await partner.client.post(`/merchants/${merchant.id}/submit`);
    const signing = await walk(merchant.id, ['start_review', 'approve_precheck']);
    expect(signing).toMatchObject({
      state: 'AWAITING_MERCHANT_SIGNATURE',
      esign_envelope: { status: 'SENT', reissue_count: 0 },
    });
    const resent = await partner.client.post(`/merchants/${merchant.id}/envelope/resend`);
    expect(resent.body.esign_envelope).toMatchObject({ status: 'SENT', reissue_count: 1 });
    const active = await walk(merchant.id, [
      'complete_signature',
      'pass_underwriting',
      'start_provisioning',
      'fail_provisioning',
      'retry_provisioning',
      'complete_provisioning',
    ]);
    expect(active).toMatchObject({
      state: 'ACTIVE',
      processor_mids: [{ processor: 'SANDBOX_PROCESSOR', mid: expect.stringMatching(/^MID\d{12}$/) }],
      gateway_merchant_id: expect.any(String),
    });
    expectProblem(
      await partner.client.post(`/merchants/${merchant.id}/envelope/resend`),
      409,
      'invalid_state_transition',
    );
    // The go-live gate lists what is missing; go_live is refused until every check passes.
    const gate = await partner.client.get(`/merchants/${merchant.id}/go-live-gate`);
    expect(gate.status).toBe(200);
    expect(gate.body).toMatchObject({ merchant_id: merchant.id, state: 'ACTIVE', ready: false });
    expect(gate.body.checks.map((c: any) => [c.code, c.passed])).toEqual([
      ['merchant_active', true],
      ['partner_certified', true],
      ['pci_saq_type_recorded', false],
      ['hipaa_baa_signed', true],
      ['bank_account_verified', false],
    ]);
    const refused = await operator(merchant.id, 'go_live');
    expectProblem(refused, 422, 'go_live_gate_failed');
    expect(refused.body.errors.map((e: any) => e.field)).toEqual([
      'go_live_gate.pci_saq_type_recorded',
      'go_live_gate.bank_account_verified',
    ]);
    const bank = await partner.client.put(`/merchants/${merchant.id}/bank-account`, {
      routing_number: '011000015',
      account_number: '123456789',
      account_type: 'CHECKING',
      account_holder_name: 'Live Cafe LLC',
    });
    expect(bank.body.status).toBe('PENDING');
    await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 120 });
    expect((await partner.client.post(`/merchants/${merchant.id}/bank-verification/check`)).body.status).toBe(
      'VERIFIED',
    );

    expectValidationError(
      await partner.client.post(`/merchants/${merchant.id}/compliance/saq-type`, { saq_type: 'Z' }),
      ['saq_type'],
    );
    const saq = await partner.client.post(`/merchants/${merchant.id}/compliance/saq-type`, { saq_type: 'A' });
    expect(saq.status).toBe(200);
    expect(saq.body.pci_saq_type).toBe('A');
    expect((await partner.client.get(`/merchants/${merchant.id}/go-live-gate`)).body.ready).toBe(true);
    const live = await walk(merchant.id, ['go_live']);
    expect(live.state).toBe('LIVE');

    const listed = await partner.client.get('/merchants?state=LIVE');
    expect(listed.body.data.map((m: any) => m.id)).toEqual([merchant.id]);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual(
      [
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
      ].sort(),
    );
    expect((await partner.client.get('/partner/me')).body.live_merchant_count).toBe(1);
  });

  it('walks rejection, resubmission, clarification, suspension and closing, and the stream audits it', async () => {
    const { body: merchant } = await create(partner, { business_name: 'Winding Road' });
    const id = merchant.id;
    await partner.client.post(`/merchants/${id}/submit`);
    await walk(id, ['start_review', 'approve_precheck']);
    const declined = await walk(id, ['decline_signature']);
    expect(declined).toMatchObject({ state: 'REJECTED', rejection_reason_code: 'REJ_008' });

    const resubmitted = await partner.client.post(`/merchants/${id}/resubmit`, { message: 'signer is back' });
    expect(resubmitted.body).toMatchObject({ state: 'REVIEWING', resubmission_count: 1 });

    const asked = await operator(id, 'request_clarification', {
      clarification_message: 'Upload a voided check',
    });
    expect(asked.body).toMatchObject({
      state: 'AWAITING_CLARIFICATION',
      clarification_message: 'Upload a voided check',
    });
    expectProblem(await operator(id, 'request_clarification'), 409, 'invalid_state_transition');
    const edited = await partner.client.patch(`/merchants/${id}`, { contact_name: 'Sam Lee' });
    expect(edited.status).toBe(200);
    const answered = await partner.client.post(`/merchants/${id}/respond-clarification`, {
      response: 'Uploaded',
    });
    expect(answered.body).toMatchObject({ state: 'REVIEWING', clarification_message: null });

    await walk(id, ['approve_precheck', 'complete_signature']);
    const failed = await operator(id, 'fail_underwriting', {
      rejection_reason_code: 'REJ_001',
      reason: 'MCC risk',
    });
    expect(failed.body).toMatchObject({
      state: 'REJECTED',
      rejection_reason_code: 'REJ_001',
      rejection_reason: 'MCC risk',
    });

    const suspended = await operator(id, 'suspend', { reason: 'fraud review' });
    expect(suspended.body).toMatchObject({ state: 'SUSPENDED', restriction_reason: 'fraud review' });
    expectProblem(await partner.client.post(`/merchants/${id}/resubmit`), 409, 'invalid_state_transition');
    const back = await operator(id, 'reactivate');
    expect(back.body).toMatchObject({ state: 'REJECTED', restriction_reason: null });

    const closed = await operator(id, 'close', { reason: 'merchant request' });
    expect(closed.body.state).toBe('CLOSED');
    for (const action of ['reactivate', 'start_review', 'close', 'suspend']) {
      expectProblem(await operator(id, action), 409, 'invalid_state_transition');
    }

    const stream = await platform().operator.get(`/platform/streams/merchant-${id}/events?limit=1000`);
    const types = stream.body.data.map((e: any) => e.type);
    expect(types).toEqual([
      'MerchantCreated',
      'MerchantSubmitted',
      'MerchantReviewStarted',
      'MerchantPrecheckApproved',
      'MerchantSignatureDeclined',
      'MerchantResubmitted',
      'MerchantClarificationRequested',
      'MerchantUpdated',
      'MerchantClarificationResponded',
      'MerchantPrecheckApproved',
      'MerchantSignatureCompleted',
      'MerchantUnderwritingFailed',
      'MerchantSuspended',
      'MerchantReactivated',
      'MerchantClosed',
    ]);
    for (const event of stream.body.data) {
      expect(event.metadata).toMatchObject({
        actor: expect.stringMatching(/^(platform-operator|partner-key:)/),
        partner_id: partner.id,
        request_id: expect.any(String),
        idempotency_key: expect.any(String),
      });
    }
  });

  it('enforces the resubmission limit with 422', async () => {
    const { body: merchant } = await create(partner, { business_name: 'Try Again' });
    await partner.client.post(`/merchants/${merchant.id}/submit`);
    await walk(merchant.id, ['start_review']);
    for (let i = 1; i <= 3; i++) {
      await walk(merchant.id, ['approve_precheck', 'decline_signature']);
      expect((await partner.client.post(`/merchants/${merchant.id}/resubmit`)).body.resubmission_count).toBe(
        i,
      );
    }
    await walk(merchant.id, ['approve_precheck', 'decline_signature']);
    expectProblem(
      await partner.client.post(`/merchants/${merchant.id}/resubmit`),
      422,
      'resubmission_limit_reached',
    );
  });

  it('keeps merchants to their partner: another partner gets 404 merchant_not_found on every read and write', async () => {
    const { body: merchant } = await create(partner, { business_name: 'Mine' });
    const other = await platform().newPartner({ name: 'Other' });
    const absent = randomUUID();
    for (const id of [merchant.id, absent]) {
      expectProblem(await other.client.get(`/merchants/${id}`), 404, 'merchant_not_found');
      expectProblem(
        await other.client.patch(`/merchants/${id}`, { business_name: 'x' }),
        404,
        'merchant_not_found',
      );
      for (const path of ['submit', 'resubmit', 'envelope/resend']) {
        expectProblem(await other.client.post(`/merchants/${id}/${path}`), 404, 'merchant_not_found');
      }
      expectProblem(
        await other.client.post(`/merchants/${id}/respond-clarification`, { response: 'x' }),
        404,
        'merchant_not_found',
      );
    }
    expect((await other.client.get('/merchants')).body.pagination.total_count).toBe(0);
    expect((await partner.client.get(`/merchants/${merchant.id}`)).body.version).toBe(1);
  });

  it('lists with filters and pagination; bad filters are 400', async () => {
    const fresh = await platform().newPartner({ name: 'Lister' });
    for (const mcc of ['5812', '5812', '8011']) await create(fresh, { merchant_category_code: mcc });
    const all = await fresh.client.get('/merchants?page_size=2');
    expect(all.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
    const next = await fresh.client.get(`/merchants?page_size=2&cursor=${all.body.pagination.next_cursor}`);
    expect(next.body.data).toHaveLength(1);
    expect(new Set([...all.body.data, ...next.body.data].map((m: any) => m.id)).size).toBe(3);
    expect((await fresh.client.get('/merchants?merchant_category_code=8011')).body.data).toHaveLength(1);
    expect((await fresh.client.get('/merchants?state=DRAFT')).body.pagination.total_count).toBe(3);
    expectValidationError(await fresh.client.get('/merchants?state=UNDER_REVIEW'), ['state']);
    expectValidationError(await fresh.client.get('/merchants?state='), ['state']);
    expectValidationError(await fresh.client.get('/merchants?merchant_category_code=58a2'), [
      'merchant_category_code',
    ]);
    // A cursor is bound to its filters.
    expectValidationError(
      await fresh.client.get(`/merchants?state=DRAFT&cursor=${all.body.pagination.next_cursor}`),
      ['cursor'],
    );
  });

  it('serves the PCI SAQ types; a healthcare merchant needs a BAA before going live', async () => {
    const types = await partner.client.get('/onboarding/saq-types');
    expect(types.status).toBe(200);
    expect(types.body.map((t: any) => t.code)).toEqual(
      expect.arrayContaining(['A', 'A-EP', 'B', 'B-IP', 'C', 'C-VT', 'P2PE', 'D']),
    );
    for (const t of types.body) expect(Object.keys(t).sort()).toEqual(['code', 'description', 'name']);

    const { body: clinic } = await create(partner, {
      business_name: 'Clinic',
      merchant_category_code: '8011',
    });
    const gate = await partner.client.get(`/merchants/${clinic.id}/go-live-gate`);
    expect(gate.body.checks.find((c: any) => c.code === 'hipaa_baa_signed')).toMatchObject({ passed: false });
    expect(gate.body.checks.find((c: any) => c.code === 'merchant_active')).toMatchObject({ passed: false });
    const other = await platform().newPartner({ name: 'Nosy' });
    expectProblem(await other.client.get(`/merchants/${clinic.id}/go-live-gate`), 404, 'merchant_not_found');
    expectProblem(
      await other.client.post(`/merchants/${clinic.id}/compliance/saq-type`, { saq_type: 'A' }),
      404,
      'merchant_not_found',
    );
  });

  it('operator transitions: unknown action 400, unknown merchant 404, partner key 403', async () => {
    const { body: merchant } = await create(partner);
    expectValidationError(await operator(merchant.id, 'launch'), ['action']);
    expectProblem(await operator(randomUUID(), 'start_review'), 404, 'merchant_not_found');
    expectProblem(
      await partner.client.post(`/platform/merchants/${merchant.id}/transitions`, { action: 'start_review' }),
      403,
      'unauthorized',
    );
    expectProblem(await operator(merchant.id, 'start_review'), 409, 'invalid_state_transition');
  });
});
