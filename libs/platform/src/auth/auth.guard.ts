import { Injectable, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ipAllowed } from '../net/ip-allowlist';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';
import { ACCESS, FEATURE, type RouteAccess } from './access';
import { CredentialDirectory, TerminalCredentialDirectory } from './credential-directory';
import { OperatorKey } from './operator-key';
import { RATE_LIMIT_WINDOW_SECONDS, RateLimiter } from './rate-limiter';
import { isScope } from './scopes';
import { keyMatches, parseKey } from './secret-key';

const deny = (status: number, code: string, detail: string, headers: Record<string, string> = {}) =>
  new ProblemException(problem(status, code, detail), headers);

const unauthorized = (detail: string) => deny(401, 'unauthorized', detail);

/**
 * Authentication and authorisation for every route (Authentication section of the spec,
 * CONTRACT §2). Order matters: who you are (401), whether your tier may call the route (403),
 * where you call from (IP allow-list, 403), how often (429), then scope and feature (403).
 * Terminal keys (`ctk_…`) open terminal routes only, where the same order holds without the
 * allow-list (a terminal stands in a shop, not in the partner's data centre) and the scope.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly operatorKey: OperatorKey,
    private readonly directory: CredentialDirectory,
    private readonly limiter: RateLimiter,
    /** Absent where terminals are not released: every terminal key is then unknown (401). */
    @Optional() private readonly terminals?: TerminalCredentialDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ACCESS, targets);
    // Fail closed: a route someone forgot to classify is nobody's.
    if (!access) throw deny(403, 'unauthorized', 'this endpoint is not available to any caller');
    if (access.tier === 'public') return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers.authorization;
    if (!header) throw unauthorized('send the API key as "Authorization: Bearer <key>"');
    // RFC 9110 §11.1: the scheme is case-insensitive (`bearer`, `BEARER`), then one or more spaces.
    const bearer = /^Bearer +(\S+)$/i.exec(header);
    if (!bearer) throw unauthorized('only "Authorization: Bearer <key>" is accepted');
    const token = bearer[1];
    const parsed = parseKey(token);
    if (!parsed) throw unauthorized('the API key is malformed');

    if (parsed.kind === 'cop') {
      if (!this.operatorKey.matches(token)) throw unauthorized('the key is not valid');
      if (access.tier !== 'operator') {
        throw deny(403, 'unauthorized', `the operator key cannot call ${access.tier} endpoints`);
      }
      request.principal = { kind: 'operator' };
      return true;
    }

    const feature = this.reflector.getAllAndOverride<string | undefined>(FEATURE, targets);
    const requireFeature = (enabledFeatures: readonly string[]) => {
      if (feature && !enabledFeatures.includes(feature)) {
        throw deny(403, 'feature_not_enabled', `this endpoint needs the feature flag ${feature}`);
      }
    };

    if (parsed.kind === 'ctk') {
      const terminal = await this.terminals?.findByPrefix(parsed.prefix);
      if (!terminal || !keyMatches(token, terminal.keyHash)) {
        throw unauthorized(
          'the key is not valid: it is unknown, was rotated or its terminal was decommissioned',
        );
      }
      if (access.tier !== 'terminal') {
        throw deny(403, 'unauthorized', `terminal keys cannot call ${access.tier} endpoints`);
      }
      // Each terminal has its own budget, so a chatty device never spends its partner's.
      await this.limitRate(`terminal:${terminal.terminalId}`, terminal.rateLimitTier, reply);
      requireFeature(terminal.enabledFeatures);
      request.principal = {
        kind: 'terminal',
        terminalId: terminal.terminalId,
        partnerId: terminal.partnerId,
        keyPrefix: terminal.prefix,
      };
      return true;
    }

    const credential = await this.directory.findByPrefix(parsed.prefix);
    if (!credential || !keyMatches(token, credential.keyHash)) {
      throw unauthorized('the key is not valid: it is unknown, was rotated or was deleted');
    }
    if (access.tier !== 'partner') {
      throw deny(
        403,
        'unauthorized',
        access.tier === 'operator'
          ? 'partner keys cannot call the platform tier'
          : `partner keys cannot call ${access.tier} endpoints`,
      );
    }
    if (!ipAllowed(request.ip, credential.ipAllowlist)) {
      throw deny(403, 'ip_not_allowed', `calls from ${request.ip} are not in the partner's ip_allowlist`);
    }
    await this.limitRate(credential.partnerId, credential.rateLimitTier, reply);
    if (!credential.scopes.includes(access.scope)) {
      throw deny(403, 'unauthorized', `this key lacks the scope ${access.scope}`);
    }
    requireFeature(credential.enabledFeatures);
    request.principal = {
      kind: 'partner',
      partnerId: credential.partnerId,
      keyId: credential.keyId,
      keyPrefix: credential.prefix,
      scopes: credential.scopes.filter(isScope),
      enabledFeatures: credential.enabledFeatures,
      apiVersion: credential.apiVersion,
    };
    return true;
  }

  /** One request against the caller's budget (429 with `Retry-After` when it is spent). */
  private async limitRate(key: string, tier: string, reply: FastifyReply): Promise<void> {
    const rate = await this.limiter.take(key, tier);
    const rateHeaders = {
      'ratelimit-limit': String(rate.limit),
      'ratelimit-remaining': String(rate.remaining),
      'ratelimit-reset': String(rate.resetSeconds),
      'ratelimit-policy': `${rate.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    };
    void reply.headers(rateHeaders);
    if (rate.allowed) return;
    const error = problem(
      429,
      'rate_limited',
      `more than ${rate.limit} requests in ${RATE_LIMIT_WINDOW_SECONDS} seconds for rate_limit_tier ${tier}`,
      { retryable: true },
    );
    throw new ProblemException(error, { ...rateHeaders, 'retry-after': String(rate.resetSeconds) });
  }
}
