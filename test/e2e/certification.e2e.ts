/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

/** A new partner has hosted_payment_pages on by default, so its first flow certifies CARD and HPP. */
const INITIAL_CHECKS = [
  ['API_AUTHENTICATION', 'CONNECTIVITY', 'AUTOMATED'],
  ['MERCHANT_CREATE', 'MERCHANT_ONBOARDING', 'AUTOMATED'],
  ['MERCHANT_SUBMIT', 'MERCHANT_ONBOARDING', 'AUTOMATED'],
  ['CARD_SALE', 'CARD_PAYMENTS', 'AUTOMATED'],
  ['CARD_DECLINE', 'CARD_PAYMENTS', 'AUTOMATED'],
  ['CARD_REFUND', 'CARD_PAYMENTS', 'AUTOMATED'],
  ['CARD_VOID', 'CARD_PAYMENTS', 'AUTOMATED'],
  ['IDEMPOTENT_RETRY', 'CARD_PAYMENTS', 'AUTOMATED'],
  ['HPP_CHECKOUT', 'HOSTED_PAYMENTS', 'AUTOMATED'],
  ['WEBHOOK_ENDPOINT', 'WEBHOOKS', 'AUTOMATED'],
  ['WEBHOOK_DELIVERY', 'WEBHOOKS', 'AUTOMATED'],
  ['PCI_SCOPE_ATTESTATION', 'COMPLIANCE_REVIEW', 'ADMIN_REVIEW'],
  ['HPP_UX_REVIEW', 'COMPLIANCE_REVIEW', 'ADMIN_REVIEW'],
] as const;

const INITIAL_STEPS = [
  { step: 'CONNECTIVITY', label: 'Connect and authenticate', total: 1 },
  { step: 'MERCHANT_ONBOARDING', label: 'Onboard a merchant', total: 2 },
  { step: 'CARD_PAYMENTS', label: 'Process card payments', total: 5 },
  { step: 'HOSTED_PAYMENTS', label: 'Take payments on hosted payment pages', total: 1 },
  { step: 'WEBHOOKS', label: 'Receive webhooks', total: 2 },
  { step: 'COMPLIANCE_REVIEW', label: 'Compliance review', total: 2 },
];

const CHECK_FIELDS = [
  'id',
  'category',
  'label',
  'tier',
  'state',
  'check_code',
  'tier_level',
  'step',
  'flag_group',
  'flag_group_label',
  'description',
  'pass_criteria',
  'attestation_statement',
  'result_notes',
  'waiver_reason',
  'submitted_by',
  'submitted_at',
  'submittable',
  'checked_by',
  'checked_at',
  'last_run_at',
  'failure_reason',
  'execution_logs',
  'request_payload',
  'retry_history',
];

const FLOW_FIELDS = [
  'id',
  'partner_id',
  'status',
  'features',
  'created_at',
  'completed_at',
  'run_started_at',
  'flow_type',
  'recertification_reason',
  'attempt_number',
  'supersedes_flow_id',
  'baseline',
  'progress',
  'checks',
];

describe('certification', () => {
  const platform = useTestPlatform();

  const certify = (partner: TestPartner, status: 'CERTIFIED' | 'PENDING' = 'CERTIFIED') =>
    platform().operator.put(`/platform/partners/${partner.id}/certification`, { status });

  it('before prepare: no active flow, no completed flow, no re-certification request', async () => {
    const partner = await platform().newPartner();
    expectProblem(
      await partner.client.get('/certification/flows/active'),
      404,
      'certification_flow_not_found',
    );
    expectProblem(
      await partner.client.get('/certification/flows/latest-completed'),
      404,
      'certification_flow_not_found',
    );
    expectProblem(
      await partner.client.get('/partner/me/certification/recertification-requests/current'),
      404,
      'recertification_request_not_found',
    );
    expectProblem(
      await partner.client.get(`/certification/flows/${randomUUID()}`),
      404,
      'certification_flow_not_found',
    );
    expectValidationError(await partner.client.get('/certification/flows/not-a-uuid'), ['flowId']);
  });

  describe('a partner through its first certification and a re-certification', () => {
    let partner: TestPartner;
    let flow: any;

    beforeAll(async () => {
      partner = await platform().newPartner();
    });

    it('prepare: 201 with a flow carrying every field of the spec', async () => {
      const res = await partner.client.post('/partner/me/certification/prepare');
      expect(res.status).toBe(201);
      flow = res.body;
      expect(Object.keys(flow).sort()).toEqual([...FLOW_FIELDS].sort());
      expect(flow).toMatchObject({
        id: expect.stringMatching(UUID),
        partner_id: partner.id,
        status: 'ACTIVE',
        features: ['CARD', 'HPP'],
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        completed_at: null,
        run_started_at: flow.created_at,
        flow_type: 'INITIAL',
        recertification_reason: null,
        attempt_number: 1,
        supersedes_flow_id: null,
        baseline: {
          features: ['CARD', 'HPP'],
          check_codes: INITIAL_CHECKS.map(([code]) => code),
          steps: INITIAL_STEPS,
        },
      });
      expect(flow.progress).toEqual({
        total: 13,
        passed: 0,
        failed: 0,
        waived: 0,
        skipped: 0,
        pending: 13,
        awaiting_admin_review: 0,
        percent: 0,
        steps: INITIAL_STEPS.map((step, index) => ({
          ...step,
          resolved: 0,
          failed: 0,
          awaiting_admin_review: 0,
          unlocked: index === 0,
          complete: false,
        })),
      });
    });

    it('every check carries every Check field; the automated ones without all their evidence stay PENDING', () => {
      expect(flow.checks.map((c: any) => [c.check_code, c.step, c.tier])).toEqual(
        INITIAL_CHECKS.map((check) => [...check]),
      );
      const ids = new Set<string>();
      for (const check of flow.checks) {
        expect(Object.keys(check).sort()).toEqual([...CHECK_FIELDS].sort());
        expect(check.id).toMatch(UUID);
        ids.add(check.id);
        expect(check).toMatchObject({
          category: expect.any(String),
          label: expect.any(String),
          state: 'PENDING',
          tier_level: expect.any(Number),
          description: expect.any(String),
          pass_criteria: expect.any(String),
          result_notes: null,
          waiver_reason: null,
          submitted_by: null,
          submitted_at: null,
          submittable: false,
          checked_by: null,
          checked_at: null,
          failure_reason: null,
          request_payload: null,
        });
        if (check.tier === 'AUTOMATED') {
          // Judged at the start of the run on the facts seen so far: only the key's issue.
          expect(check.last_run_at).toBe(flow.run_started_at);
          expect(check.retry_history).toEqual([
            {
              attempt: 1,
              trigger: 'RUN_START',
              verdict: 'NOT_SATISFIED',
              resulting_state: 'PENDING',
              failure_reason: null,
              execution_logs:
                check.check_code === 'API_AUTHENTICATION'
                  ? expect.stringMatching(/^observed: API_KEY_ISSUED at \S+; missing: PARTNER_IDENTITY_READ$/)
                  : expect.stringMatching(/^observed: none; missing: /),
              evaluated_at: flow.run_started_at,
              duration_ms: 0,
            },
          ]);
          expect(check.execution_logs).toBe(check.retry_history[0].execution_logs);
        } else {
          // The compliance step is locked behind the others: not yet awaiting a reviewer.
          expect(check.retry_history).toEqual([]);
          expect(check.last_run_at).toBeNull();
          expect(check.tier_level).toBe(3);
        }
      }
      expect(ids.size).toBe(13);
      const auth = flow.checks.find((c: any) => c.check_code === 'API_AUTHENTICATION');
      expect(auth).toMatchObject({
        category: 'CONNECTIVITY',
        tier_level: 1,
        flag_group: null,
        flag_group_label: null,
        attestation_statement: null,
        execution_logs: expect.stringMatching(
          /^observed: API_KEY_ISSUED at \S+; missing: PARTNER_IDENTITY_READ$/,
        ),
      });
      expect(flow.checks.find((c: any) => c.check_code === 'HPP_CHECKOUT')).toMatchObject({
        flag_group: 'hosted_payment_pages',
        flag_group_label: 'Hosted payment pages',
      });
      expect(
        flow.checks.find((c: any) => c.check_code === 'PCI_SCOPE_ATTESTATION').attestation_statement,
      ).toEqual(expect.any(String));
    });

    it('evidence the platform observes passes checks of the active flow', async () => {
      // The first identity read completes API_AUTHENTICATION; a webhook URL passes WEBHOOK_ENDPOINT.
      expect((await partner.client.get('/partner/me')).status).toBe(200);
      const configured = await partner.client.put(`/config/partners/${partner.id}`, {
        webhook_url: 'http://127.0.0.1:9000/hooks',
      });
      expect(configured.status).toBe(200);
      const active = (await partner.client.get('/certification/flows/active')).body;
      const check = (code: string) => active.checks.find((c: any) => c.check_code === code);
      expect(check('API_AUTHENTICATION')).toMatchObject({ state: 'PASSED', checked_by: 'system' });
      expect(check('API_AUTHENTICATION').retry_history.at(-1)).toMatchObject({
        trigger: 'EVIDENCE',
        verdict: 'SATISFIED',
        resulting_state: 'PASSED',
      });
      expect(check('WEBHOOK_ENDPOINT')).toMatchObject({ state: 'PASSED' });
      expect(check('MERCHANT_CREATE')).toMatchObject({ state: 'PENDING' });
      expect(active.progress.passed).toBe(2);
      // Recorded once: a second read adds nothing.
      const version = (await partner.client.get('/partner/me')).body.version;
      expect((await partner.client.get('/partner/me')).body.version).toBe(version);
      flow = active;
    });

    it('prepare again: 200 with the same flow', async () => {
      const again = await partner.client.post('/partner/me/certification/prepare');
      expect(again.status).toBe(200);
      expect(again.body).toEqual(flow);
    });

    it('the flow reads by id and as the active flow; nothing is completed yet', async () => {
      const byId = await partner.client.get(`/certification/flows/${flow.id}`);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual(flow);
      expect((await partner.client.get(`/certification/flows/${flow.id.toUpperCase()}`)).body.id).toBe(
        flow.id,
      );
      const active = await partner.client.get('/certification/flows/active');
      expect(active.status).toBe(200);
      expect(active.body).toEqual(flow);
      expectProblem(
        await partner.client.get('/certification/flows/latest-completed'),
        404,
        'certification_flow_not_found',
      );
      expect((await partner.client.get('/capabilities')).body.certification_status).toBe('PENDING');
    });

    it('the operator certifies: CERTIFIED, the flow COMPLETED with its open checks WAIVED, the passed ones kept', async () => {
      const res = await certify(partner);
      expect(res.status).toBe(200);
      expect(res.body.certification_status).toBe('CERTIFIED');
      expect((await partner.client.get('/capabilities')).body.certification_status).toBe('CERTIFIED');

      const completed = await partner.client.get(`/certification/flows/${flow.id}`);
      expect(completed.body).toMatchObject({
        id: flow.id,
        status: 'COMPLETED',
        completed_at: expect.stringMatching(ISO_TIMESTAMP),
        attempt_number: 1,
      });
      const passedOnEvidence = ['API_AUTHENTICATION', 'WEBHOOK_ENDPOINT'];
      for (const check of completed.body.checks) {
        if (passedOnEvidence.includes(check.check_code)) {
          expect(check).toMatchObject({ state: 'PASSED', waiver_reason: null, checked_by: 'system' });
          continue;
        }
        expect(check).toMatchObject({
          state: 'WAIVED',
          waiver_reason: 'certified by platform operator',
          checked_by: 'platform-operator',
          checked_at: completed.body.completed_at,
        });
      }
      expect(completed.body.progress).toMatchObject({
        total: 13,
        passed: 2,
        waived: 11,
        pending: 0,
        awaiting_admin_review: 0,
        percent: 100,
      });
      for (const step of completed.body.progress.steps) {
        expect(step).toMatchObject({ resolved: step.total, unlocked: true, complete: true });
      }
      const latest = await partner.client.get('/certification/flows/latest-completed');
      expect(latest.status).toBe(200);
      expect(latest.body).toEqual(completed.body);
      expectProblem(
        await partner.client.get('/certification/flows/active'),
        404,
        'certification_flow_not_found',
      );
      expectProblem(
        await partner.client.get('/partner/me/certification/recertification-requests/current'),
        404,
        'recertification_request_not_found',
      );
      flow = completed.body;
    });

    it('enabling a flag that brings an uncertified feature asks the certified partner to re-certify', async () => {
      const enabled = await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body.enabled).toBe(true);
      const request = await partner.client.get('/partner/me/certification/recertification-requests/current');
      expect(request.status).toBe(200);
      expect(request.body).toEqual({
        id: expect.stringMatching(UUID),
        partner_id: partner.id,
        requested_features: ['ACH'],
        message: expect.stringContaining('ach_payments'),
        state: 'PENDING',
        dismissed_reason: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      // The partner stays certified meanwhile; a flag that certifies nothing asks nothing more.
      expect((await partner.client.get('/capabilities')).body.certification_status).toBe('CERTIFIED');
      await partner.client.put('/config/feature-flags/me/convenience_fees', { enabled: true });
      const still = await partner.client.get('/partner/me/certification/recertification-requests/current');
      expect(still.body).toEqual(request.body);
    });

    it('prepare: a RECERTIFICATION flow, attempt 2, superseding the first and fulfilling the request', async () => {
      const request = (await partner.client.get('/partner/me/certification/recertification-requests/current'))
        .body;
      const res = await partner.client.post('/partner/me/certification/prepare');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'ACTIVE',
        flow_type: 'RECERTIFICATION',
        attempt_number: 2,
        supersedes_flow_id: flow.id,
        recertification_reason: request.message,
        features: ['CARD', 'ACH', 'HPP'],
        completed_at: null,
      });
      expect(res.body.id).not.toBe(flow.id);
      expect(res.body.checks.map((c: any) => c.check_code)).toEqual(
        expect.arrayContaining(['ACH_DEBIT', 'ACH_AUTHORIZATION_ATTESTATION']),
      );
      // Facts are the partner's: what it already showed passes the new flow's checks at once.
      for (const check of res.body.checks) {
        const passed = ['API_AUTHENTICATION', 'WEBHOOK_ENDPOINT'].includes(check.check_code);
        expect([check.check_code, check.state]).toEqual([check.check_code, passed ? 'PASSED' : 'PENDING']);
      }
      const fulfilled = await partner.client.get(
        '/partner/me/certification/recertification-requests/current',
      );
      expect(fulfilled.body).toEqual({ ...request, state: 'FULFILLED' });
      // Until the new flow completes, the first one is still the latest completed certification.
      expect((await partner.client.get('/certification/flows/latest-completed')).body.id).toBe(flow.id);
      expect((await partner.client.get('/certification/flows/active')).body.id).toBe(res.body.id);

      // Certifying again completes the re-certification and supersedes the first flow.
      expect((await certify(partner)).status).toBe(200);
      expect((await partner.client.get('/certification/flows/latest-completed')).body).toMatchObject({
        id: res.body.id,
        status: 'COMPLETED',
      });
      expect((await partner.client.get(`/certification/flows/${flow.id}`)).body.status).toBe('SUPERSEDED');
      expectProblem(
        await partner.client.get('/certification/flows/active'),
        404,
        'certification_flow_not_found',
      );
    });
  });

  it('a partner that is not certified is not asked to re-certify when it enables a flag', async () => {
    const partner = await platform().newPartner();
    expect(
      (await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status,
    ).toBe(200);
    expectProblem(
      await partner.client.get('/partner/me/certification/recertification-requests/current'),
      404,
      'recertification_request_not_found',
    );
    const res = await partner.client.post('/partner/me/certification/prepare');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ flow_type: 'INITIAL', features: ['CARD', 'ACH', 'HPP'] });
  });

  it('certification needs its scopes', async () => {
    const reader = await platform().newPartner({ scopes: ['certification:read'] });
    expectProblem(await reader.client.post('/partner/me/certification/prepare'), 403, 'unauthorized');
    expectProblem(
      await reader.client.get('/certification/flows/active'),
      404,
      'certification_flow_not_found',
    );
    const writer = await platform().newPartner({ scopes: ['certification:write'] });
    expect((await writer.client.post('/partner/me/certification/prepare')).status).toBe(201);
    expectProblem(await writer.client.get('/certification/flows/active'), 403, 'unauthorized');
  });

  it('the operator certifying a partner that never prepared completes no flow', async () => {
    const partner = await platform().newPartner();
    expect((await certify(partner)).body.certification_status).toBe('CERTIFIED');
    expectProblem(
      await partner.client.get('/certification/flows/latest-completed'),
      404,
      'certification_flow_not_found',
    );
    const res = await partner.client.post('/partner/me/certification/prepare');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ flow_type: 'INITIAL', attempt_number: 1, supersedes_flow_id: null });
  });
});
