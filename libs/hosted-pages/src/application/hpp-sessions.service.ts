import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { CustomerReader } from '../../../customers/src';
import {
  MerchantPricing,
  MerchantReader,
  normalizeCustomFieldValues,
  validateCustomFieldValues,
  type TransactionPrice,
  type Merchant,
} from '../../../merchants/src';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import { RequestRecord } from '../../../platform/src/idempotency/request-record';
import { DomainError } from '../../../platform/src/problem';
import { PartnerReader, assertFeaturesEnabled, type FeatureNeed } from '../../../partners/src';
import { assertMerchantTransactable, CustomFieldsInvalid } from '../../../transactions/src';
import { parseSessionRequest, type HppSessionRequest } from '../domain/session/session-request';
import {
  toSessionCreateResource,
  toSessionResource,
  type HppSessionCreateResource,
  type HppSessionResource,
} from '../domain/session/session-resource';
import type { HppSession } from '../domain/session/session';
import { RunHppSessionCommand } from './hpp-session-commands';
import { HppSessionReader } from './hpp-session-reader';
import { HppUrls } from './hpp-urls';

/**
 * 422 `payment_method_not_accepted`: the partner's `hpp_settings.accepted_methods` leave out the
 * session's `payment_method` (ACH without `ach`; a card page with neither card kind), so no payer
 * could ever pay on the page.
 */
export class PaymentMethodNotAccepted extends DomainError {
  readonly code = 'payment_method_not_accepted';
  override readonly retryable = false;
  readonly errors: readonly { field: string; message: string }[];

  constructor(paymentMethod: string, accepted: readonly string[]) {
    const message = `${paymentMethod} is not in the partner's hpp_settings.accepted_methods (${accepted.join(', ')})`;
    super(message);
    this.errors = [{ field: 'payment_method', message }];
  }
}

/** The accepted method names a session's `payment_method` stands for. */
const METHODS_OF: Record<HppSessionRequest['paymentMethod'], readonly string[]> = {
  ach: ['ach'],
  card: ['credit_card', 'debit_card'],
};

/**
 * The feature flags a session's variants need (docs/feature-flags.md), in the order a refusal
 * names them: the whole endpoint needs `hosted_payment_pages` (on the route); these are checked
 * on the parsed body.
 */
function featuresNeeded(request: HppSessionRequest): FeatureNeed[] {
  const needs: FeatureNeed[] = [];
  if (request.paymentMethod === 'ach') {
    needs.push({ flag: 'ach_payments', field: 'payment_method', what: 'an ACH session' });
  }
  if (request.savesPaymentMethod) {
    const field =
      request.pagePurpose === 'save_payment_method'
        ? 'page_purpose'
        : request.recurringPlan
          ? 'recurring_plan'
          : 'save_payment_method';
    needs.push({ flag: 'stored_credentials', field, what: 'a session that saves a payment method' });
  }
  if (request.recurringPlan) {
    needs.push({
      flag: 'recurring_billing',
      field: 'recurring_plan',
      what: 'a session with a recurring_plan',
    });
  }
  if (request.credentialUsages.includes('RECURRING')) {
    needs.push({
      flag: 'recurring_billing',
      field: 'credential_usages',
      what: 'credential_usages with RECURRING',
    });
  }
  if (request.credentialUsages.includes('INSTALLMENT')) {
    needs.push({
      flag: 'installments',
      field: 'credential_usages',
      what: 'credential_usages with INSTALLMENT',
    });
  }
  if (request.customFields.length > 0) {
    needs.push({ flag: 'custom_fields', field: 'custom_fields', what: 'custom_fields on a session' });
  }
  return needs;
}

/**
 * `POST /hpp/sessions`, `GET /hpp/sessions/{id}`, `POST /hpp/sessions/{id}/cancel`: the checks
 * around the session aggregate. Order of a create, each failing before anything is written:
 * body (400) → feature flags of its variants (403) → the partner's accepted methods take its
 * `payment_method` (422 `payment_method_not_accepted`) → merchant is the partner's (404
 * `merchant_not_found`) → merchant may transact (422 `merchant_not_transactable`) → customer is a
 * live customer of that merchant (404 `customer_not_found`) → custom fields against the merchant's
 * configuration (422 `custom_fields_invalid`) → price → decide.
 */
@Injectable()
export class HppSessions {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: HppSessionReader,
    private readonly urls: HppUrls,
    private readonly merchants: MerchantReader,
    private readonly customers: CustomerReader,
    private readonly pricing: MerchantPricing,
    private readonly partners: PartnerReader,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    metadata: EventMetadata,
    caller: PartnerPrincipal,
    body: unknown,
  ): Promise<HppSessionCreateResource> {
    const parsed = parseSessionRequest(body);
    assertFeaturesEnabled(caller.enabledFeatures, featuresNeeded(parsed));
    await this.assertMethodAccepted(caller.partnerId, parsed.paymentMethod);
    // Cached reads (at most READ_CACHE_MAX_AGE_MS old; docs/adr/0008-write-path.md).
    const merchant = await this.merchants.getForPartnerCached(parsed.merchantId, caller.partnerId);
    // The rule a charge applies, so a page is never handed to a payer whose payment would be refused.
    assertMerchantTransactable(merchant, this.config.appEnv);
    if (parsed.customerId !== null) {
      await this.customers.getForMerchant(parsed.customerId, merchant.id, caller.partnerId);
    }
    const customFields = this.customFieldsFor(merchant, parsed);
    const price = await this.priceOf(merchant, parsed);

    const answer = (session: HppSession) =>
      toSessionCreateResource(session, this.urls.of(session.id), this.clock.now());
    // The request's only write: the record, HppSessionCreated and this answer commit together.
    RequestRecord.current()?.answerWith((state) => answer(state as HppSession));
    const { state: session } = await this.commands.execute(
      new RunHppSessionCommand(
        {
          type: 'CreateHppSession',
          sessionId: idFor(metadata.causation_id, 'hpp_session', randomUUID),
          partnerId: caller.partnerId,
          request: { ...parsed, customFields },
          price,
        },
        metadata,
        { final: true },
      ),
    );
    return answer(session);
  }

  /** The read form, with the effective state (a PENDING session past `expires_at` reads EXPIRED). */
  async read(sessionId: string, caller: PartnerPrincipal): Promise<HppSessionResource> {
    const session = await this.sessions.getForPartner(sessionId, caller.partnerId);
    return toSessionResource(session, this.urls.of(session.id), this.clock.now());
  }

  /**
   * PENDING → CANCELLED; 200 with the read form. A session that is COMPLETED, CANCELLED, LOCKED or
   * EXPIRED (recorded, or PENDING past `expires_at`) is 409 `invalid_state_transition`.
   */
  async cancel(
    metadata: EventMetadata,
    caller: PartnerPrincipal,
    sessionId: string,
  ): Promise<HppSessionResource> {
    await this.sessions.getForPartner(sessionId, caller.partnerId);
    const { state: session } = await this.commands.execute(
      new RunHppSessionCommand({ type: 'CancelHppSession', sessionId }, metadata),
    );
    return toSessionResource(session, this.urls.of(session.id), this.clock.now());
  }

  /**
   * The partner's `hpp_settings.accepted_methods` must take the session's method: a page nobody
   * could pay on is refused at create, not discovered by the payer. (Which card kind a payer
   * brings is known only on the page: hosted-checkout.ts refuses a left-out kind there.)
   */
  private async assertMethodAccepted(
    partnerId: string,
    paymentMethod: HppSessionRequest['paymentMethod'],
  ): Promise<void> {
    const accepted = (await this.partners.getCached(partnerId)).configuration.hppSettings.acceptedMethods;
    // An empty list (never stored: the settings refuse one) would restrict nothing, as on the page.
    if (accepted.length > 0 && !METHODS_OF[paymentMethod].some((method) => accepted.includes(method))) {
      throw new PaymentMethodNotAccepted(paymentMethod, accepted);
    }
  }

  /**
   * Session custom fields come from the partner's server, not from the payer (the page has no
   * custom-field inputs), so they are checked as API values: any enabled field may be sent and
   * every enabled required field must be. They are stored normalised (configured name spelling,
   * trimmed, blanks dropped), exactly as the completion charge will record them.
   */
  private customFieldsFor(merchant: Merchant, request: HppSessionRequest): HppSessionRequest['customFields'] {
    const errors = validateCustomFieldValues(merchant.customFields, request.customFields, 'api');
    if (errors.length > 0) throw new CustomFieldsInvalid(errors);
    return normalizeCustomFieldValues(merchant.customFields, request.customFields);
  }

  /**
   * The price of a fixed amount (null on a customer_entered or save_payment_method page, priced
   * when the payer submits). A card session is priced as a credit card: the card is not known
   * until the payer types it, and only credit cards are surcharged, so this is the most the payer
   * can be charged. The page says debit and prepaid cards are not surcharged, and completion
   * re-prices with the real card's type. ACH is never surcharged; a convenience fee applies to
   * either method when the merchant's program covers it on CARD_NOT_PRESENT.
   */
  private async priceOf(merchant: Merchant, request: HppSessionRequest): Promise<TransactionPrice | null> {
    if (request.amountMinor === null) return null;
    return this.pricing.price(merchant, {
      amountMinor: request.amountMinor,
      paymentMethod: request.paymentMethod,
      cardType: request.paymentMethod === 'card' ? 'credit' : null,
      channel: 'CARD_NOT_PRESENT',
      merchantInitiated: false,
    });
  }
}
