import { CommandBus } from '@nestjs/cqrs';
import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import type { EventMetadata } from '../../../event-store/src';
import { MerchantReader } from '../../../merchants/src';
import { PartnerReader, isFlagEnabled } from '../../../partners/src';
import { PaymentGateway } from '../../../gateway/src';
import { Clock } from '../../../platform/src/clock/clock';
import { SealedBox } from '../../../platform/src/crypto/sealed-box';
import { idFor } from '../../../platform/src/http/request-metadata';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { formatAmount } from '../../../platform/src/money/amount';
import { HostedPlans } from '../../../recurring/src';
import { Charges, GatewayOutcomeUnknown, totalMinor, type Transaction } from '../../../transactions/src';
import {
  CardVault,
  type EnrollmentTerms,
  type StoredCredential,
  type VaultInstrument,
  MintStoredCredential,
} from '../../../vault/src';
import { effectiveState, type HppSession } from '../domain/session/session';
import { issueCsrfToken, verifyCsrfToken } from '../page/csrf';
import { parseHostedForm, type HostedFormInput } from '../page/form';
import { everyPhrase } from '../page/render';
import { RunHppSessionCommand, type HppSessionCommandInput } from './hpp-session-commands';
import { HppSessionReader } from './hpp-session-reader';

/** A CSRF token is good for the session's whole life (30 minutes by default), with slack. */
const CSRF_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export type CheckoutOutcome =
  /** Completed (or already was): 303 to the result page. */
  | { kind: 'done' }
  /** Show the form again with these messages (the payer can correct and retry). */
  | {
      kind: 'retry';
      status: number;
      errors: Record<string, string>;
      values: Record<string, string>;
      pageError?: string;
    }
  /** The session cannot take a payment (expired, cancelled, locked, completed): its result page. */
  | { kind: 'closed' };

/**
 * The hosted page's form post, start to finish (CONTRACT §4; issue: a session is completed at most
 * once, even under double submit). One post at a time per session: a PostgreSQL advisory lock,
 * so a second click (or a second browser tab) waits and then finds the session completed.
 *
 * Order: CSRF → form rules → the partner still accepts the method (accepted_methods; ACH also
 * needs `ach_payments`) → vault → (save page or "save" checkbox) mint the stored credential →
 * (payment page) charge through {@link Charges.chargeHosted}, the same path as POST /transactions
 * → complete the session. A decline or an invalid entry counts as a failed attempt; the 5th locks
 * the session (card-testing defence). The charge's command id is derived from the session and the
 * attempt number, so a re-post of the same attempt (a double submit, a retry after an unknown
 * gateway answer) resolves the same transaction instead of charging twice.
 */
@Injectable()
export class HostedCheckout {
  private readonly csrfKey: Buffer;

  constructor(
    private readonly sessions: HppSessionReader,
    private readonly merchants: MerchantReader,
    private readonly vault: CardVault,
    private readonly commands: CommandBus,
    private readonly charges: Charges,
    private readonly partners: PartnerReader,
    private readonly gateway: PaymentGateway,
    private readonly plans: HostedPlans,
    private readonly pool: Pool,
    private readonly clock: Clock,
    box: SealedBox,
  ) {
    this.csrfKey = box.deriveKey('hpp-csrf');
  }

  csrfToken(sessionId: string): string {
    return issueCsrfToken(this.csrfKey, sessionId, this.clock.now());
  }

  async submit(
    sessionId: string,
    body: Record<string, unknown>,
    requestId: string,
  ): Promise<CheckoutOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [`hpp:${sessionId}`]);
      try {
        return await this.submitLocked(sessionId, body, requestId);
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [`hpp:${sessionId}`]);
      }
    } finally {
      client.release();
    }
  }

  private async submitLocked(
    sessionId: string,
    body: Record<string, unknown>,
    requestId: string,
  ): Promise<CheckoutOutcome> {
    const now = this.clock.now();
    const session = await this.sessions.find(sessionId);
    if (!session || effectiveState(session, now) !== 'PENDING') return { kind: 'closed' };
    if (!verifyCsrfToken(this.csrfKey, sessionId, body.csrf_token, now, CSRF_MAX_AGE_MS)) {
      return {
        kind: 'retry',
        status: 403,
        errors: {},
        values: {},
        pageError: 'This form has expired. Please enter your details again.',
      };
    }
    const parsed = parseHostedForm(session, body, now);
    if (!parsed.ok) {
      const closed = await this.failAttempt(session, 'invalid_entry', requestId);
      return closed
        ? { kind: 'closed' }
        : { kind: 'retry', status: 422, errors: parsed.errors, values: parsed.values };
    }
    if (parsed.input.paymentMethod === 'ach') {
      // Not the payer's doing, and nothing the payer can change on an ACH page: not an attempt.
      if (!(await this.achAccepted(session.partnerId))) {
        return {
          kind: 'retry',
          status: 422,
          errors: {},
          values: {},
          pageError: 'Bank account payments are not accepted here. Please contact the merchant.',
        };
      }
      return this.complete(session, parsed.input, requestId);
    }
    const refusal = await this.cardTypeRefusal(session.partnerId, parsed.input.card.pan);
    if (refusal) {
      const closed = await this.failAttempt(session, 'card_type_not_accepted', requestId);
      return closed
        ? { kind: 'closed' }
        : { kind: 'retry', status: 422, errors: { card_number: refusal }, values: {} };
    }
    return this.complete(session, parsed.input, requestId);
  }

  /**
   * Whether the partner takes ACH on its pages right now: `ach` in `hpp_settings.accepted_methods`
   * and the `ach_payments` flag on. Both are checked at session create; they are checked again
   * here because the partner may have changed them while the page was open, and a debit the
   * partner no longer accepts must not be sent (a change is seen within the read caches' bound,
   * READ_CACHE_MAX_AGE_MS, as by every charge).
   */
  private async achAccepted(partnerId: string): Promise<boolean> {
    const { configuration } = await this.partners.getCached(partnerId);
    const accepted = configuration.hppSettings.acceptedMethods;
    return (
      (accepted.length === 0 || accepted.includes('ach')) && isFlagEnabled(configuration, 'ach_payments')
    );
  }

  /**
   * The partner's `hpp_settings.accepted_methods` (`credit_card`, `debit_card`): a card of a kind
   * it leaves out is refused before anything is vaulted or charged. Prepaid cards count as debit
   * (as they do for surcharging). An empty list restricts nothing.
   */
  private async cardTypeRefusal(partnerId: string, pan: string): Promise<string | null> {
    // Cached reads, as a charge's (at most READ_CACHE_MAX_AGE_MS old; docs/adr/0008-write-path.md).
    const accepted = (await this.partners.getCached(partnerId)).configuration.hppSettings.acceptedMethods;
    if (accepted.length === 0) return null;
    const kind = (await this.gateway.cardFunding(pan)) === 'credit' ? 'credit_card' : 'debit_card';
    if (accepted.includes(kind)) return null;
    const other = kind === 'credit_card' ? 'debit_card' : 'credit_card';
    if (!accepted.includes(other)) return 'Cards are not accepted here.';
    return kind === 'debit_card'
      ? 'Debit cards are not accepted here. Please use a credit card.'
      : 'Credit cards are not accepted here. Please use a debit card.';
  }

  private async complete(
    session: HppSession,
    input: HostedFormInput,
    requestId: string,
  ): Promise<CheckoutOutcome> {
    const metadata = this.metadata(session, requestId, `complete:${session.failedAttempts}`);
    const merchant = await this.merchants.getForPartnerCached(session.merchantId, session.partnerId);
    const instrument: VaultInstrument =
      input.paymentMethod === 'card'
        ? {
            kind: 'card',
            pan: input.card.pan,
            expMonth: input.card.expMonth,
            expYear: input.card.expYear,
            postalCode: input.card.postalCode,
          }
        : {
            kind: 'ach',
            routingNumber: input.bank.routingNumber,
            accountNumber: input.bank.accountNumber,
            accountType: input.bank.accountType,
          };
    const stored = await this.vault.store(session.partnerId, session.merchantId, instrument);
    const contractId = session.recurringPlan ? await this.openPlan(session, requestId) : null;

    let credential: StoredCredential | null = null;
    if (session.savesPaymentMethod) {
      credential = await this.commands.execute(
        new MintStoredCredential(metadata, {
          // One credential per vault entry: a second attempt (another card after a decline) has
          // its own entry, so its own credential.
          storedCredentialId: idFor(session.id, `stored_credential:${stored.token}`, () => session.id),
          vaultToken: stored.token,
          partnerId: session.partnerId,
          merchantId: session.merchantId,
          customerId: session.customerId,
          processor: 'sandbox',
          paymentMethodType: stored.display.paymentMethodType,
          card: stored.display.card,
          bank: stored.display.bank,
          allowedUseTypes: session.credentialUsages,
          consent: {
            capturedAt: this.clock.now().toISOString(),
            channel: 'hpp',
            text: `The payer agreed on the hosted page to store this payment method for: ${session.credentialUsages.join(', ')}.`,
          },
          enrollmentTerms: enrollmentTermsOf(session),
        }),
      );
    }
    const credentialId = credential?.id ?? null;

    let transaction: Transaction | null = null;
    if (session.pagePurpose === 'payment') {
      const amountMinor = input.amountMinor ?? BigInt(session.amountMinor ?? '0');
      try {
        transaction = await this.charges.chargeHosted(
          {
            partnerId: session.partnerId,
            commandId: idFor(session.id, `hpp-charge:${session.failedAttempts}`, () => session.id),
            metadata,
            source: 'hpp',
            disclosureChannel: 'HOSTED_PAYMENT_PAGE',
            entryMode: 'ECOMMERCE',
          },
          {
            type: input.paymentMethod === 'card' ? 'SALE' : 'ACH_DEBIT',
            merchant,
            vaultToken: stored.token,
            storedCredentialId: credentialId,
            card: stored.display.card,
            bank: stored.display.bank,
            useType: 'ONE_TIME_FUTURE',
            amountMinor,
            currency: session.currency,
            customerId: session.customerId,
            taxMinor: null,
            secCode: input.paymentMethod === 'ach' ? 'WEB' : null,
            customFields: session.customFields.map(({ name, value }) => ({ name, value })),
            level2Data: null,
            level3Data: null,
          },
          input.paymentMethod === 'card' ? input.card.cvc : null,
        );
      } catch (error) {
        if (!(error instanceof GatewayOutcomeUnknown)) throw error;
        return {
          kind: 'retry',
          status: 502,
          errors: {},
          values: {},
          pageError:
            'We could not confirm your payment with the bank yet. Please submit again in a moment; you will not be charged twice.',
        };
      }
      if (transaction.state !== 'FAILED' && contractId && credential) {
        await this.plans.activate(
          contractId,
          credential,
          { transactionId: transaction.id, amountMinor: BigInt(transaction.amountMinor) },
          metadata,
        );
      }
      if (transaction.state === 'FAILED') {
        const closed = await this.failAttempt(session, transaction.declineCode ?? 'declined', requestId);
        if (closed) return { kind: 'closed' };
        return {
          kind: 'retry',
          status: 402,
          errors: {},
          values: {},
          pageError: `${transaction.declineReason ?? 'The payment was declined.'} Please try another payment method.`,
        };
      }
    }

    const card = stored.display.card;
    const bank = stored.display.bank;
    const entered =
      session.amountMode === 'customer_entered' && transaction
        ? {
            baseMinor: BigInt(transaction.amountMinor),
            surchargeMinor: BigInt(transaction.surchargeMinor),
            convenienceFeeMinor: BigInt(transaction.convenienceFeeMinor),
            totalMinor: totalMinor(transaction),
          }
        : null;
    await this.execute(
      {
        type: 'CompleteHppSession',
        sessionId: session.id,
        vaultToken: session.savesPaymentMethod ? stored.token : null,
        storedCredentialId: credentialId,
        transactionId: transaction?.id ?? null,
        card: card && {
          brand: card.brand,
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
        },
        bank: bank && {
          routingLast4: bank.routingLast4,
          accountLast4: bank.accountLast4,
          accountType: bank.accountType,
        },
        tokenizationOutcome: session.savesPaymentMethod ? 'stored' : 'not_requested',
        enteredPrice: entered,
      },
      metadata,
    );
    return { kind: 'done' };
  }

  /**
   * The contract of the session's plan, opened at the payer's first submit (PENDING_ACTIVATION:
   * it waits for this page's payment) and named on the session. Every later submit finds it.
   */
  private async openPlan(session: HppSession, requestId: string): Promise<string> {
    const plan = session.recurringPlan!;
    const metadata = this.metadata(session, requestId, 'plan');
    const contractId = await this.plans.open(
      {
        sessionId: session.id,
        partnerId: session.partnerId,
        merchantId: session.merchantId,
        customerId: session.customerId,
        paymentMethod: session.paymentMethod,
        currency: session.currency,
        credentialUsages: session.credentialUsages,
        customFields: session.customFields.map(({ name, value }) => ({ name, value })),
        recurringAmountMinor: BigInt(plan.recurringAmountMinor),
        frequency: plan.frequency,
        interval: plan.interval,
        numberOfPayments: plan.numberOfPayments,
        expiresAt: session.expiresAt,
      },
      metadata,
    );
    if (session.contractId !== contractId) {
      await this.execute({ type: 'LinkHppSessionContract', sessionId: session.id, contractId }, metadata);
    }
    return contractId;
  }

  /** Records a failed attempt; true when it locked the session. */
  private async failAttempt(session: HppSession, reason: string, requestId: string): Promise<boolean> {
    const after = await this.execute(
      { type: 'RecordHppSessionFailedAttempt', sessionId: session.id, reason },
      this.metadata(session, requestId, `attempt:${session.failedAttempts}`),
    );
    return after?.lockedOut === true;
  }

  private async execute(
    command: HppSessionCommandInput,
    metadata: EventMetadata,
  ): Promise<HppSession | null> {
    try {
      return (await this.commands.execute(new RunHppSessionCommand(command, metadata))).state;
    } catch (error) {
      if (error instanceof InvalidStateTransition) return this.sessions.find(command.sessionId);
      throw error;
    }
  }

  /** The payer is anonymous: the actor is the hosted page, on the session's partner. */
  private metadata(session: HppSession, requestId: string, step: string): EventMetadata {
    return {
      actor: `hpp:${session.id}`,
      partner_id: session.partnerId,
      request_id: requestId,
      idempotency_key: `hpp:${session.id}:${step}`,
      causation_id: idFor(session.id, `hpp:${step}`, () => session.id),
      correlation_id: requestId,
    };
  }
}

/**
 * The stored credential's `enrollment_terms` (spec: `amount`, `frequency`, `duration`, strings) for
 * a session with a recurring plan: what the payer agreed to on the page, in the page's words
 * ("25.00 USD", "every month", "12 payments" or "until cancelled"); null without a plan.
 */
export function enrollmentTermsOf(
  session: Pick<HppSession, 'recurringPlan' | 'currency'>,
): EnrollmentTerms | null {
  const plan = session.recurringPlan;
  if (!plan) return null;
  return {
    amount: `${formatAmount(BigInt(plan.recurringAmountMinor), session.currency)} ${session.currency}`,
    frequency: everyPhrase(plan.frequency, plan.interval),
    duration: plan.numberOfPayments === null ? 'until cancelled' : `${plan.numberOfPayments} payments`,
  };
}
