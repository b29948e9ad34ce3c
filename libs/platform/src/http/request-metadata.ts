import { createHash } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { EventMetadata } from '../events/event-metadata';
import { actorOf, type PartnerPrincipal, type Principal, type TerminalPrincipal } from '../auth/principal';

/**
 * The metadata every event of a request carries: who (actor, partner), which request, which
 * idempotency key, and the command id (the idempotency record's id) as `causation_id`, which
 * lets a re-run of the same request recognise what its first run already appended.
 */
export function metadataOf(request: FastifyRequest, partnerId?: string): EventMetadata {
  const principal = request.principal;
  return {
    actor: actorOf(principal),
    partner_id:
      partnerId ??
      (principal?.kind === 'partner' || principal?.kind === 'terminal' ? principal.partnerId : null),
    request_id: String(request.id),
    idempotency_key: request.idempotencyKey ?? null,
    causation_id: request.commandId ?? null,
    correlation_id: String(request.id),
  };
}

/**
 * The metadata of a write no request made (a background sweep): the `actor` names the worker, and
 * the causation id, derived by the caller from what it acts on, lets two workers racing on the
 * same item recognise each other's append.
 */
export function systemMetadata(actor: string, partnerId: string | null, causationId: string): EventMetadata {
  return {
    actor,
    partner_id: partnerId,
    request_id: null,
    idempotency_key: null,
    causation_id: causationId,
    correlation_id: causationId,
  };
}

/** `@Metadata() meta: EventMetadata` in a handler. */
export const Metadata = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  metadataOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal | undefined =>
    ctx.switchToHttp().getRequest<FastifyRequest>().principal,
);

/** The calling partner (only on partner routes, where the guard guarantees one). */
export const CurrentPartner = createParamDecorator((_: unknown, ctx: ExecutionContext): PartnerPrincipal => {
  const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
  if (principal?.kind !== 'partner') throw new Error('CurrentPartner used on a route without a partner');
  return principal;
});

/** The calling terminal (only on terminal routes, where the guard guarantees one). */
export const CurrentTerminal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): TerminalPrincipal => {
    const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
    if (principal?.kind !== 'terminal') throw new Error('CurrentTerminal used on a route without a terminal');
    return principal;
  },
);

/**
 * The id of a record a command creates: derived from the command id, so a re-run of the same
 * request (same idempotency record) creates the same record instead of a second one. Name-based
 * UUID (version 5 layout over SHA-256).
 */
export function idFor(commandId: string | null | undefined, kind: string, fallback: () => string): string {
  if (!commandId) return fallback();
  const bytes = createHash('sha256').update(`${kind}:${commandId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
