import type { Scope } from './scopes';

/** Who is calling, as the guard established it. */
export type Principal =
  | { kind: 'operator' }
  | {
      kind: 'partner';
      partnerId: string;
      keyId: string;
      /** The key's public prefix: safe for logs and the `actor` of events. */
      keyPrefix: string;
      scopes: readonly Scope[];
      enabledFeatures: readonly string[];
      /** The partner's configured `api_version` (what its answers are built for unless pinned). */
      apiVersion: string;
    }
  | {
      kind: 'terminal';
      terminalId: string;
      /** The partner whose terminal it is. */
      partnerId: string;
      /** The terminal key's public prefix: safe for logs and the `actor` of events. */
      keyPrefix: string;
    };

export type PartnerPrincipal = Extract<Principal, { kind: 'partner' }>;
export type TerminalPrincipal = Extract<Principal, { kind: 'terminal' }>;

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The idempotency record's id: the command id every event of this request carries. */
    commandId?: string;
    /**
     * True when `commandId` was minted for this request: no earlier run of the command can have
     * written anything, so a handler may skip looking for its traces. False when the request
     * takes over a key whose earlier run died without an answer.
     */
    commandFresh?: boolean;
    idempotencyKey?: string;
  }
}

/** The event `actor`: names the credential, never the secret. */
export function actorOf(principal: Principal | undefined): string {
  if (!principal) return 'anonymous';
  switch (principal.kind) {
    case 'operator':
      return 'platform-operator';
    case 'partner':
      return `partner-key:${principal.keyPrefix}`;
    case 'terminal':
      return `terminal-key:${principal.keyPrefix}`;
  }
}
