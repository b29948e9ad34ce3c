import type { MerchantEvent, MerchantWritableFields, ProcessorMid } from './merchant-events';
import type { MerchantStateOrNone, MerchantStreamEvent } from './merchant';
import {
  decideHppMerchantPage,
  type HppMerchantPageCommand,
  initialHppMerchantPageState,
} from '../../../page-config/src';
import {
  decideCompliance,
  MERCHANT_COMPLIANCE_COMMAND_TYPES,
  type MerchantComplianceCommand,
} from './compliance/compliance-decide';
import { decideCustomFields, type CustomFieldsCommand } from './custom-fields/custom-fields-decide';
import { initialCustomFieldsState } from './custom-fields/custom-fields';
import { decideBank, type BankCommand } from './bank/bank-verification';
import { decideFees, type FeesCommand } from './fees/fees-decide';
import type { FeeEligibility } from './fees/fee-eligibility';
import { initialFeesState } from './fees/fees';
import {
  ClarificationMessageRequired,
  GoLiveGateFailed,
  MerchantAlreadyExists,
  MerchantNotFound,
  ResubmissionLimitReached,
  type GoLiveGate,
} from './merchant-errors';
import {
  DEFAULT_MERCHANT_CHANNEL,
  DEFAULT_REJECTION_REASON_CODE,
  DEFAULT_UNDERWRITING_REJECTION_REASON,
  DEFAULT_RESUBMISSION_LIMIT,
  ENVELOPE_DECLINED_REASON_CODE,
  nextMerchantState,
  type HipaaBaaStatus,
  type MerchantAction,
  type MerchantChannel,
} from './merchant-states';

/**
 * A PATCH: only provided fields change. A new MCC comes with the BAA status the catalog gives
 * it (the types make the pair travel together).
 */
export type MerchantChanges = Partial<
  Omit<MerchantWritableFields, 'merchantCategoryCode' | 'hipaaBaaStatus'>
> &
  (
    | { merchantCategoryCode?: undefined; hipaaBaaStatus?: undefined }
    | { merchantCategoryCode: string; hipaaBaaStatus: HipaaBaaStatus }
  );

interface Base {
  merchantId: string;
  at: Date;
}

/** Field formats (email, lengths, MCC in the catalog) are checked by the HTTP layer. */
export type MerchantCommand =
  | (Base & {
      type: 'CreateMerchant';
      partnerId: string;
      businessName: string;
      contactEmail: string;
      contactName: string;
      merchantCategoryCode: string;
      authorizedSignerName?: string | null;
      authorizedSignerEmail?: string | null;
      channel?: MerchantChannel;
      locationCount?: number | null;
      businessState?: string | null;
      hipaaBaaStatus: HipaaBaaStatus;
      resubmissionLimit?: number;
    })
  | (Base & { type: 'UpdateMerchant'; changes: MerchantChanges })
  | (Base & { type: 'SubmitMerchant' })
  | (Base & { type: 'RespondToMerchantClarification'; response: string })
  | (Base & { type: 'ResubmitMerchant'; message?: string | null })
  | (Base & { type: 'ResendMerchantEnvelope' })
  | (Base & { type: 'StartMerchantReview' })
  | (Base & { type: 'ApproveMerchantPrecheck' })
  | (Base & { type: 'CompleteMerchantSignature' })
  | (Base & { type: 'DeclineMerchantSignature'; reason?: string | null })
  | (Base & { type: 'PassMerchantUnderwriting' })
  | (Base & {
      type: 'FailMerchantUnderwriting';
      /** `^REJ_[0-9]{3}$` (checked by the HTTP layer); REJ_001 when absent. */
      rejectionReasonCode?: string | null;
      rejectionReason?: string | null;
    })
  | (Base & { type: 'RequestMerchantClarification'; clarificationMessage?: string | null })
  | (Base & { type: 'StartMerchantProvisioning' })
  | (Base & { type: 'FailMerchantProvisioning'; step?: string | null; error?: string | null })
  | (Base & { type: 'RetryMerchantProvisioning' })
  | (Base & {
      type: 'CompleteMerchantProvisioning';
      processorMids: ProcessorMid[];
      gatewayMerchantId: string;
    })
  | (Base & { type: 'TakeMerchantLive'; gate: GoLiveGate })
  | (Base & { type: 'SuspendMerchant'; reason?: string | null })
  | (Base & { type: 'ReactivateMerchant' })
  | (Base & { type: 'CloseMerchant'; reason?: string | null });

export type MerchantCommandType = MerchantCommand['type'];

/** Command → the action of the state machine it performs (every command but create). */
export const MERCHANT_COMMAND_ACTIONS = {
  UpdateMerchant: 'update',
  SubmitMerchant: 'submit',
  RespondToMerchantClarification: 'respond_clarification',
  ResubmitMerchant: 'resubmit',
  ResendMerchantEnvelope: 'resend_envelope',
  StartMerchantReview: 'start_review',
  ApproveMerchantPrecheck: 'approve_precheck',
  CompleteMerchantSignature: 'complete_signature',
  DeclineMerchantSignature: 'decline_signature',
  PassMerchantUnderwriting: 'pass_underwriting',
  FailMerchantUnderwriting: 'fail_underwriting',
  RequestMerchantClarification: 'request_clarification',
  StartMerchantProvisioning: 'start_provisioning',
  FailMerchantProvisioning: 'fail_provisioning',
  RetryMerchantProvisioning: 'retry_provisioning',
  CompleteMerchantProvisioning: 'complete_provisioning',
  TakeMerchantLive: 'go_live',
  SuspendMerchant: 'suspend',
  ReactivateMerchant: 'reactivate',
  CloseMerchant: 'close',
} as const satisfies Record<Exclude<MerchantCommandType, 'CreateMerchant'>, MerchantAction>;

/** Action → its command type (e.g. the operator's `action` to the command to run). */
export const MERCHANT_ACTION_COMMANDS = Object.fromEntries(
  Object.entries(MERCHANT_COMMAND_ACTIONS).map(([command, action]) => [action, command]),
) as Record<MerchantAction, Exclude<MerchantCommandType, 'CreateMerchant'>>;

const WRITABLE_FIELDS = [
  'businessName',
  'contactEmail',
  'contactName',
  'authorizedSignerName',
  'authorizedSignerEmail',
  'merchantCategoryCode',
  'channel',
  'locationCount',
  'businessState',
  'hipaaBaaStatus',
] as const satisfies readonly (keyof MerchantWritableFields)[];

const isBlank = (value: string | null | undefined): boolean => !value || value.trim() === '';

/** Every command on `merchant-{id}`: the lifecycle and the merchant's configuration. */
export type MerchantStreamCommand =
  | MerchantCommand
  | HppMerchantPageCommand
  | MerchantComplianceCommand
  | CustomFieldsCommand
  | BankCommand
  /** Fee writes carry the eligibility the handler computed from the merchant and its partner. */
  | (FeesCommand & { eligibility: FeeEligibility });

const CUSTOM_FIELDS_COMMANDS = new Set<string>([
  'ConfigureCustomFields',
  'ClearCustomFields',
  'MarkCustomFieldsProvisioned',
  'MarkCustomFieldsProvisioningFailed',
]);

const COMPLIANCE_COMMANDS = new Set<string>(MERCHANT_COMPLIANCE_COMMAND_TYPES);

const HPP_COMMANDS = new Set<string>([
  'SetHppOverride',
  'DeleteHppOverride',
  'ReplaceEmbeddingDomains',
  'AddEmbeddingDomains',
]);

/** The merchant's decisions. Pure: time and ids arrive with the command. */
export function decide(command: MerchantStreamCommand, merchant: MerchantStateOrNone): MerchantStreamEvent[] {
  if (HPP_COMMANDS.has(command.type)) {
    if (!merchant) throw new MerchantNotFound(command.merchantId);
    return decideHppMerchantPage(
      command as HppMerchantPageCommand,
      merchant.hppPage ?? initialHppMerchantPageState(),
    );
  }
  if (CUSTOM_FIELDS_COMMANDS.has(command.type)) {
    if (!merchant) throw new MerchantNotFound(command.merchantId);
    return decideCustomFields(
      command as CustomFieldsCommand,
      merchant.customFields ?? initialCustomFieldsState(),
    );
  }
  if (command.type === 'SetSettlementBankAccount' || command.type === 'RecordBankVerificationCheck') {
    if (!merchant) throw new MerchantNotFound(command.merchantId);
    return decideBank(command, { ...merchant, bank: merchant.bank ?? null });
  }
  if (
    command.type === 'SetFeeProfile' ||
    command.type === 'SetConvenienceFee' ||
    command.type === 'SetSurcharge'
  ) {
    if (!merchant) throw new MerchantNotFound(command.merchantId);
    return decideFees(command, merchant.fees ?? initialFeesState(), {
      merchantState: merchant.state,
      eligibility: command.eligibility,
    });
  }
  if (COMPLIANCE_COMMANDS.has(command.type)) {
    if (!merchant) throw new MerchantNotFound(command.merchantId);
    return decideCompliance(command as MerchantComplianceCommand, merchant);
  }
  return decideLifecycle(command as MerchantCommand, merchant);
}

function decideLifecycle(command: MerchantCommand, merchant: MerchantStateOrNone): MerchantEvent[] {
  if (command.type === 'CreateMerchant') {
    if (merchant) throw new MerchantAlreadyExists(command.merchantId);
    return [
      {
        type: 'MerchantCreated',
        data: {
          merchantId: command.merchantId,
          partnerId: command.partnerId,
          businessName: command.businessName,
          contactEmail: command.contactEmail,
          contactName: command.contactName,
          authorizedSignerName: command.authorizedSignerName ?? null,
          authorizedSignerEmail: command.authorizedSignerEmail ?? null,
          merchantCategoryCode: command.merchantCategoryCode,
          channel: command.channel ?? DEFAULT_MERCHANT_CHANNEL,
          locationCount: command.locationCount ?? null,
          businessState: command.businessState ?? null,
          hipaaBaaStatus: command.hipaaBaaStatus,
          resubmissionLimit: command.resubmissionLimit ?? DEFAULT_RESUBMISSION_LIMIT,
          createdAt: command.at.toISOString(),
        },
      },
    ];
  }
  if (!merchant) throw new MerchantNotFound(command.merchantId);

  // One lookup refuses every move the table does not allow (409); rule checks come after.
  const from = merchant.state;
  nextMerchantState(MERCHANT_COMMAND_ACTIONS[command.type], from, merchant);
  const ids = { merchantId: merchant.id, partnerId: merchant.partnerId };
  const at = command.at.toISOString();

  switch (command.type) {
    case 'UpdateMerchant': {
      const changed: Partial<MerchantWritableFields> = {};
      for (const field of WRITABLE_FIELDS) {
        // The BAA status is recomputed only by an actual MCC change: the same MCC again keeps
        // a SIGNED status (a different MCC needs a new signed BAA when it requires one).
        if (
          field === 'hipaaBaaStatus' &&
          command.changes.merchantCategoryCode === merchant.merchantCategoryCode
        )
          continue;
        const value = command.changes[field];
        if (value !== undefined && value !== merchant[field]) {
          (changed as Record<string, unknown>)[field] = value;
        }
      }
      if (Object.keys(changed).length === 0) return [];
      return [{ type: 'MerchantUpdated', data: { ...ids, ...changed, updatedAt: at } }];
    }
    case 'SubmitMerchant':
      return [{ type: 'MerchantSubmitted', data: { ...ids, submittedAt: at } }];
    case 'RespondToMerchantClarification':
      return [
        {
          type: 'MerchantClarificationResponded',
          data: { ...ids, response: command.response, clarificationRespondedAt: at },
        },
      ];
    case 'ResubmitMerchant': {
      if (merchant.resubmissionCount >= merchant.resubmissionLimit) {
        throw new ResubmissionLimitReached(
          merchant.id,
          merchant.resubmissionCount,
          merchant.resubmissionLimit,
        );
      }
      return [
        {
          type: 'MerchantResubmitted',
          data: {
            ...ids,
            resubmissionCount: merchant.resubmissionCount + 1,
            message: command.message ?? null,
            resubmittedAt: at,
          },
        },
      ];
    }
    case 'ResendMerchantEnvelope':
      return [
        {
          type: 'MerchantEnvelopeResent',
          data: {
            ...ids,
            reissueCount: (merchant.esignEnvelope?.reissueCount ?? 0) + 1,
            envelopeResentAt: at,
          },
        },
      ];
    case 'StartMerchantReview':
      return [{ type: 'MerchantReviewStarted', data: { ...ids, reviewStartedAt: at } }];
    case 'ApproveMerchantPrecheck':
      return [
        { type: 'MerchantPrecheckApproved', data: { ...ids, precheckApprovedAt: at, envelopeSentAt: at } },
      ];
    case 'CompleteMerchantSignature':
      return [{ type: 'MerchantSignatureCompleted', data: { ...ids, signatureCompletedAt: at } }];
    case 'DeclineMerchantSignature':
      return [
        {
          type: 'MerchantSignatureDeclined',
          data: {
            ...ids,
            rejectionReasonCode: ENVELOPE_DECLINED_REASON_CODE,
            rejectionReason: isBlank(command.reason)
              ? 'signature envelope declined or abandoned'
              : (command.reason as string),
            signatureDeclinedAt: at,
          },
        },
      ];
    case 'PassMerchantUnderwriting':
      return [{ type: 'MerchantUnderwritingPassed', data: { ...ids, underwritingPassedAt: at } }];
    case 'FailMerchantUnderwriting':
      return [
        {
          type: 'MerchantUnderwritingFailed',
          data: {
            ...ids,
            rejectionReasonCode: command.rejectionReasonCode || DEFAULT_REJECTION_REASON_CODE,
            // Spec: a failed underwriting sets both the code and the reason.
            rejectionReason: command.rejectionReason?.trim() || DEFAULT_UNDERWRITING_REJECTION_REASON,
            underwritingFailedAt: at,
          },
        },
      ];
    case 'RequestMerchantClarification': {
      if (isBlank(command.clarificationMessage)) throw new ClarificationMessageRequired(merchant.id);
      return [
        {
          type: 'MerchantClarificationRequested',
          data: {
            ...ids,
            clarificationMessage: command.clarificationMessage as string,
            requestedFrom: from,
            clarificationRequestedAt: at,
          },
        },
      ];
    }
    case 'StartMerchantProvisioning':
      return [{ type: 'MerchantProvisioningStarted', data: { ...ids, provisioningStartedAt: at } }];
    case 'FailMerchantProvisioning':
      return [
        {
          type: 'MerchantProvisioningFailed',
          data: {
            ...ids,
            step: command.step ?? null,
            error: command.error ?? null,
            provisioningFailedAt: at,
          },
        },
      ];
    case 'RetryMerchantProvisioning':
      return [
        {
          type: 'MerchantProvisioningRetried',
          data: { ...ids, resumeAtStep: merchant.failedProvisioningStep, provisioningRetriedAt: at },
        },
      ];
    case 'CompleteMerchantProvisioning':
      return [
        {
          type: 'MerchantProvisioned',
          data: {
            ...ids,
            processorMids: command.processorMids.map(({ processor, mid }) => ({ processor, mid })),
            gatewayMerchantId: command.gatewayMerchantId,
            provisionedAt: at,
          },
        },
      ];
    case 'TakeMerchantLive': {
      const failing = command.gate.checks.filter((check) => !check.passed);
      if (failing.length > 0) throw new GoLiveGateFailed(merchant.id, failing);
      return [
        {
          type: 'MerchantWentLive',
          data: { ...ids, gateChecks: command.gate.checks.map((check) => check.code), wentLiveAt: at },
        },
      ];
    }
    case 'SuspendMerchant':
      return [
        {
          type: 'MerchantSuspended',
          data: { ...ids, suspendedFrom: from, reason: command.reason ?? null, suspendedAt: at },
        },
      ];
    case 'ReactivateMerchant':
      return [
        {
          type: 'MerchantReactivated',
          data: { ...ids, restoredState: nextMerchantState('reactivate', from, merchant), reactivatedAt: at },
        },
      ];
    case 'CloseMerchant':
      return [
        {
          type: 'MerchantClosed',
          data: { ...ids, closedFrom: from, reason: command.reason ?? null, closedAt: at },
        },
      ];
  }
}
