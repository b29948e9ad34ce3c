import { DomainError, NotFound } from '../../../platform/src/problem';

/** 404: no such merchant, or it belongs to another partner (the two read the same). */
export class MerchantNotFound extends NotFound {
  constructor(readonly merchantId: string) {
    super('merchant_not_found', `merchant ${merchantId} does not exist`);
  }
}

/** 409: a create for a merchant id whose stream already exists. */
export class MerchantAlreadyExists extends DomainError {
  readonly code = 'merchant_already_exists';

  constructor(readonly merchantId: string) {
    super(`merchant ${merchantId} already exists`);
  }
}

/** 422: a REJECTED merchant has used all its resubmissions. */
export class ResubmissionLimitReached extends DomainError {
  readonly code = 'resubmission_limit_reached';

  constructor(
    readonly merchantId: string,
    readonly resubmissionCount: number,
    readonly resubmissionLimit: number,
  ) {
    super(
      `merchant ${merchantId} was resubmitted ${resubmissionCount} times; the limit is ${resubmissionLimit}`,
    );
  }
}

export interface GoLiveCheck {
  code: string;
  passed: boolean;
  detail?: string;
}

/** The go-live gate, evaluated outside the domain (partner certification, probes, documents…). */
export interface GoLiveGate {
  checks: GoLiveCheck[];
}

/** 422: one or more go-live checks did not pass; `errors` names each failing check. */
export class GoLiveGateFailed extends DomainError {
  readonly code = 'go_live_gate_failed';
  readonly failingCodes: string[];
  readonly errors: { field: string; message: string }[];

  constructor(
    readonly merchantId: string,
    readonly failedChecks: GoLiveCheck[],
  ) {
    super(`merchant ${merchantId} cannot go live: ${failedChecks.map((c) => c.code).join(', ')} not passed`);
    this.failingCodes = failedChecks.map((c) => c.code);
    this.errors = failedChecks.map((c) => ({
      field: `go_live_gate.${c.code}`,
      message: c.detail ?? 'check not passed',
    }));
  }
}

/** 422: request_clarification needs a non-blank clarification_message. */
export class ClarificationMessageRequired extends DomainError {
  readonly code = 'clarification_message_required';
  readonly errors = [{ field: 'clarification_message', message: 'is required to request clarification' }];

  constructor(readonly merchantId: string) {
    super(`a clarification request for merchant ${merchantId} needs a clarification_message`);
  }
}
