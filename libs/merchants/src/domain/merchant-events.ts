import type { HipaaBaaStatus, MerchantChannel, MerchantState } from './merchant-states';

/**
 * Stored merchant events (stream `merchant-{id}`). Stored types are never renamed or reshaped;
 * add new ones instead. Every event names its merchant and partner and carries its time as an
 * ISO-8601 string.
 */

interface Ids {
  merchantId: string;
  partnerId: string;
}

export interface ProcessorMid {
  processor: string;
  mid: string;
}

/** The fields a partner writes (create and PATCH), camelCase. */
export interface MerchantWritableFields {
  businessName: string;
  contactEmail: string;
  contactName: string;
  authorizedSignerName: string | null;
  authorizedSignerEmail: string | null;
  merchantCategoryCode: string;
  channel: MerchantChannel;
  locationCount: number | null;
  /** USPS code of the business location (surcharge rules depend on it); absent in early events. */
  businessState?: string | null;
  /** Follows the MCC (computed outside from the catalog). */
  hipaaBaaStatus: HipaaBaaStatus;
}

export interface MerchantCreated {
  type: 'MerchantCreated';
  data: Ids & MerchantWritableFields & { resubmissionLimit: number; createdAt: string };
}

/** A PATCH; only the fields that changed are present. */
export interface MerchantUpdated {
  type: 'MerchantUpdated';
  data: Ids & Partial<MerchantWritableFields> & { updatedAt: string };
}

export interface MerchantSubmitted {
  type: 'MerchantSubmitted';
  data: Ids & { submittedAt: string };
}

export interface MerchantReviewStarted {
  type: 'MerchantReviewStarted';
  data: Ids & { reviewStartedAt: string };
}

/** Pre-check approved; the signature envelope was sent to the authorized signer. */
export interface MerchantPrecheckApproved {
  type: 'MerchantPrecheckApproved';
  data: Ids & { precheckApprovedAt: string; envelopeSentAt: string };
}

export interface MerchantSignatureCompleted {
  type: 'MerchantSignatureCompleted';
  data: Ids & { signatureCompletedAt: string };
}

/** Envelope declined or abandoned: rejected with REJ_008. */
export interface MerchantSignatureDeclined {
  type: 'MerchantSignatureDeclined';
  data: Ids & { rejectionReasonCode: string; rejectionReason: string | null; signatureDeclinedAt: string };
}

export interface MerchantUnderwritingPassed {
  type: 'MerchantUnderwritingPassed';
  data: Ids & { underwritingPassedAt: string };
}

export interface MerchantUnderwritingFailed {
  type: 'MerchantUnderwritingFailed';
  data: Ids & { rejectionReasonCode: string; rejectionReason: string | null; underwritingFailedAt: string };
}

export interface MerchantClarificationRequested {
  type: 'MerchantClarificationRequested';
  data: Ids & {
    clarificationMessage: string;
    /** REVIEWING or UNDERWRITING. */
    requestedFrom: MerchantState;
    clarificationRequestedAt: string;
  };
}

export interface MerchantClarificationResponded {
  type: 'MerchantClarificationResponded';
  data: Ids & { response: string; clarificationRespondedAt: string };
}

export interface MerchantResubmitted {
  type: 'MerchantResubmitted';
  /** `resubmissionCount` is the count after this resubmission. */
  data: Ids & { resubmissionCount: number; message: string | null; resubmittedAt: string };
}

export interface MerchantEnvelopeResent {
  type: 'MerchantEnvelopeResent';
  /** `reissueCount` is the count after this resend. */
  data: Ids & { reissueCount: number; envelopeResentAt: string };
}

export interface MerchantProvisioningStarted {
  type: 'MerchantProvisioningStarted';
  data: Ids & { provisioningStartedAt: string };
}

export interface MerchantProvisioningFailed {
  type: 'MerchantProvisioningFailed';
  /** `step`: the provisioning step that failed (null: unknown, a retry starts from the first). */
  data: Ids & { step: string | null; error: string | null; provisioningFailedAt: string };
}

export interface MerchantProvisioningRetried {
  type: 'MerchantProvisioningRetried';
  data: Ids & { resumeAtStep: string | null; provisioningRetriedAt: string };
}

export interface MerchantProvisioned {
  type: 'MerchantProvisioned';
  data: Ids & { processorMids: ProcessorMid[]; gatewayMerchantId: string; provisionedAt: string };
}

export interface MerchantWentLive {
  type: 'MerchantWentLive';
  /** The codes of the go-live gate's checks, all passed. */
  data: Ids & { gateChecks: string[]; wentLiveAt: string };
}

export interface MerchantSuspended {
  type: 'MerchantSuspended';
  data: Ids & { suspendedFrom: MerchantState; reason: string | null; suspendedAt: string };
}

export interface MerchantReactivated {
  type: 'MerchantReactivated';
  /** `restoredState`: the state the merchant was suspended from. */
  data: Ids & { restoredState: MerchantState; reactivatedAt: string };
}

export interface MerchantClosed {
  type: 'MerchantClosed';
  data: Ids & { closedFrom: MerchantState; reason: string | null; closedAt: string };
}

/** Everything on `merchant-{id}`. */
export type MerchantEvent =
  | MerchantCreated
  | MerchantUpdated
  | MerchantSubmitted
  | MerchantReviewStarted
  | MerchantPrecheckApproved
  | MerchantSignatureCompleted
  | MerchantSignatureDeclined
  | MerchantUnderwritingPassed
  | MerchantUnderwritingFailed
  | MerchantClarificationRequested
  | MerchantClarificationResponded
  | MerchantResubmitted
  | MerchantEnvelopeResent
  | MerchantProvisioningStarted
  | MerchantProvisioningFailed
  | MerchantProvisioningRetried
  | MerchantProvisioned
  | MerchantWentLive
  | MerchantSuspended
  | MerchantReactivated
  | MerchantClosed;

export type MerchantEventType = MerchantEvent['type'];

/** The webhook types merchant events map to (`GET /webhook-event-types`). */
export const MERCHANT_WEBHOOK_TYPES = [
  'merchant.created',
  'merchant.updated',
  'merchant.submitted',
  'merchant.state_changed',
  'merchant.clarification_requested',
  'merchant.envelope_resent',
  'merchant.rejected',
  'merchant.live',
  'merchant.suspended',
  'merchant.closed',
] as const;
export type MerchantWebhookType = (typeof MERCHANT_WEBHOOK_TYPES)[number];

/**
 * Event type → the webhook type a partner sees. Every merchant event is visible to its partner.
 * Moves without a dedicated type are `merchant.state_changed` (the payload is the merchant).
 * The record makes the compiler check that every event type is mapped.
 */
export const MERCHANT_WEBHOOK_EVENT_TYPES: Readonly<Record<MerchantEventType, MerchantWebhookType>> = {
  MerchantCreated: 'merchant.created',
  MerchantUpdated: 'merchant.updated',
  MerchantSubmitted: 'merchant.submitted',
  MerchantReviewStarted: 'merchant.state_changed',
  MerchantPrecheckApproved: 'merchant.state_changed',
  MerchantSignatureCompleted: 'merchant.state_changed',
  MerchantSignatureDeclined: 'merchant.rejected',
  MerchantUnderwritingPassed: 'merchant.state_changed',
  MerchantUnderwritingFailed: 'merchant.rejected',
  MerchantClarificationRequested: 'merchant.clarification_requested',
  MerchantClarificationResponded: 'merchant.state_changed',
  MerchantResubmitted: 'merchant.state_changed',
  MerchantEnvelopeResent: 'merchant.envelope_resent',
  MerchantProvisioningStarted: 'merchant.state_changed',
  MerchantProvisioningFailed: 'merchant.state_changed',
  MerchantProvisioningRetried: 'merchant.state_changed',
  MerchantProvisioned: 'merchant.state_changed',
  MerchantWentLive: 'merchant.live',
  MerchantSuspended: 'merchant.suspended',
  MerchantReactivated: 'merchant.state_changed',
  MerchantClosed: 'merchant.closed',
};

/** Every merchant event type (the record above makes the compiler check the list is complete). */
export const MERCHANT_EVENT_TYPES = Object.keys(MERCHANT_WEBHOOK_EVENT_TYPES) as MerchantEventType[];
