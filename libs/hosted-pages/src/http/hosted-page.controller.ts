import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MerchantReader } from '../../../merchants/src';
import { PartnerReader } from '../../../partners/src';
import { PublicRoute } from '../../../platform/src/auth/access';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { AcceptsFormBody } from '../../../platform/src/http/content-type';
import { WithoutIdempotencyHeader } from '../../../platform/src/idempotency/idempotency.interceptor';
import { TransactionReader, totalMinor } from '../../../transactions/src';
import { HostedCheckout, type CheckoutOutcome } from '../application/hosted-checkout';
import { HppSessionReader } from '../application/hpp-session-reader';
import { HPP_PAGE_QUERY, HppUrls } from '../application/hpp-urls';
import { effectiveHppPageConfiguration, type Appearance } from '../../../page-config/src';
import { effectiveState, type HppSession } from '../domain/session/session';
import { renderPaymentPage } from '../page/render';
import { renderResultPage, type ResultPageInput } from '../page/result-page';
import { newStyleNonce, pageSecurityHeaders } from '../page/security-headers';
import { VERSIONED_UUID } from '../../../platform/src/validation/uuid';
import { Describe } from '../../../platform/src/openapi/describe';
import { PayerFormSchema } from '../page/fields';

type ResultOf<T> = T extends unknown ? Omit<T, 'styleNonce' | 'merchantName' | 'appearance'> : never;
type ResultInput = ResultOf<ResultPageInput>;

interface PageContext {
  session: HppSession;
  merchantName: string;
  appearance: Appearance;
  embeddingDomains: string[];
}

/**
 * The hosted payment page a payer opens in a browser (`hpp_url`, CONTRACT §4): server-rendered
 * HTML, no script, styled by the merchant's effective page configuration. Public: the session id
 * (a random UUID, valid 30 minutes) is the capability. Errors are pages, never problem+json.
 */
@Controller('hpp')
export class HostedPageController {
  constructor(
    private readonly sessions: HppSessionReader,
    private readonly urls: HppUrls,
    private readonly checkout: HostedCheckout,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    private readonly transactions: TransactionReader,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':sessionId')
  @PublicRoute()
  @Describe({
    summary: 'The payer’s hosted page (HTML form); the session id is the capability',
    query: HPP_PAGE_QUERY,
    response: { mediaType: 'text/html' },
    otherResponses: { 303: { description: 'The session is no longer pending: to its result page' } },
    errors: [404],
    htmlErrors: true,
  })
  async page(@Param('sessionId') sessionId: string, @Res() reply: FastifyReply): Promise<void> {
    const context = await this.context(sessionId);
    if (!context) return this.result(reply, 404, null, { outcome: 'not_found' });
    if (effectiveState(context.session, this.clock.now()) !== 'PENDING') {
      return reply.redirect(`${this.urls.of(sessionId).hppUrl}/result`, 303);
    }
    return this.form(reply, 200, context, {}, {});
  }

  @Post(':sessionId')
  @PublicRoute()
  @Describe({
    summary:
      'The payer submits the form; completed: 303 to the result page, else the form again with its errors',
    form: { mediaType: 'application/x-www-form-urlencoded', schema: PayerFormSchema },
    response: { mediaType: 'text/html', description: 'The form again (a field to correct)' },
    otherResponses: { 303: { description: 'Completed: to the result page' } },
    errors: [402, 403, 404, 410, 422, 502],
    htmlErrors: true,
  })
  @AcceptsFormBody()
  @WithoutIdempotencyHeader()
  @HttpCode(200)
  async submit(
    @Param('sessionId') sessionId: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const context = await this.context(sessionId);
    if (!context) return this.result(reply, 404, null, { outcome: 'not_found' });
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const outcome: CheckoutOutcome = await this.checkout.submit(sessionId, fields, String(request.id));
    if (outcome.kind === 'retry') {
      const fresh = (await this.context(sessionId))!;
      return this.form(reply, outcome.status, fresh, outcome.values, outcome.errors, outcome.pageError);
    }
    return reply.redirect(`${this.urls.of(sessionId).hppUrl}/result`, 303);
  }

  @Get(':sessionId/result')
  @PublicRoute()
  @Describe({
    summary: 'The payer’s result page (HTML)',
    response: { mediaType: 'text/html' },
    otherResponses: { 303: { description: 'Still pending: back to the form' } },
    errors: [403, 404, 410],
    htmlErrors: true,
  })
  async resultPage(@Param('sessionId') sessionId: string, @Res() reply: FastifyReply): Promise<void> {
    const context = await this.context(sessionId);
    if (!context) return this.result(reply, 404, null, { outcome: 'not_found' });
    const s = context.session;
    const state = effectiveState(s, this.clock.now());
    if (state === 'PENDING') return reply.redirect(this.urls.of(sessionId).hppUrl, 303);
    if (state === 'EXPIRED') return this.result(reply, 410, context, { outcome: 'expired' });
    // The lockout ends a session CANCELLED (CONTRACT §8's states); the payer is told why.
    if (state === 'CANCELLED' && s.lockedOut) return this.result(reply, 403, context, { outcome: 'locked' });
    if (state === 'CANCELLED') return this.result(reply, 410, context, { outcome: 'cancelled' });
    const card = s.card ? { brand: s.card.brand, last4: s.card.last4 } : undefined;
    const bank = s.bank ? { accountLast4: s.bank.accountLast4, accountType: s.bank.accountType } : undefined;
    if (!s.transactionId) return this.result(reply, 200, context, { outcome: 'saved', card, bank });
    const t = await this.transactions.find(s.transactionId);
    return this.result(reply, 200, context, {
      outcome: 'approved',
      amountMinor: t ? totalMinor(t) : 0n,
      currency: s.currency,
      card,
      bank,
      transactionReference: s.transactionId,
      saved: s.vaultToken !== null,
    });
  }

  private async context(sessionId: string): Promise<PageContext | null> {
    if (!VERSIONED_UUID.test(sessionId)) return null;
    const session = await this.sessions.find(sessionId.toLowerCase());
    if (!session) return null;
    const merchant = await this.merchants.get(session.merchantId);
    const partner = await this.partners.get(session.partnerId);
    const config = effectiveHppPageConfiguration(
      partner.hppTemplate,
      merchant.hppPage,
      merchant.id,
      partner.id,
    );
    return {
      session,
      merchantName: merchant.businessName,
      appearance: config.appearance,
      embeddingDomains: config.embedding_domains,
    };
  }

  private headers(reply: FastifyReply, context: PageContext | null, nonce: string): void {
    reply.headers(
      pageSecurityHeaders({
        renderingMode: context?.session.renderingMode ?? 'redirect',
        embeddingDomains: context?.embeddingDomains ?? [],
        environment: this.config.appEnv,
        styleNonce: nonce,
      }),
    );
  }

  private form(
    reply: FastifyReply,
    status: number,
    context: PageContext,
    values: Record<string, string>,
    errors: Record<string, string>,
    pageError?: string,
  ): void {
    const styleNonce = newStyleNonce();
    this.headers(reply, context, styleNonce);
    const html = renderPaymentPage({
      session: context.session,
      merchantName: context.merchantName,
      appearance: context.appearance,
      formAction: this.urls.of(context.session.id).hppUrl,
      csrfToken: this.checkout.csrfToken(context.session.id),
      styleNonce,
      values,
      errors,
      pageError,
    });
    void reply.status(status).send(html);
  }

  private result(reply: FastifyReply, status: number, context: PageContext | null, input: ResultInput): void {
    const styleNonce = newStyleNonce();
    this.headers(reply, context, styleNonce);
    const html = renderResultPage({
      ...input,
      styleNonce,
      merchantName: context?.merchantName ?? null,
      appearance: context?.appearance ?? null,
    } as ResultPageInput);
    void reply.status(status).send(html);
  }
}
