/**
 * Every scope a partner API key can carry: the spec's scopes plus the ones the other parts of
 * the API need. A key issued without an explicit list gets all of them. docs/scopes.md lists
 * which endpoint needs which; every partner route declares exactly one (see access.ts).
 */
export const PARTNER_SCOPES = {
  'partner:read': 'read the partner identity, capabilities, system status and partner transitions',
  'config:read': 'read partner configuration, feature flags, catalogs and HPP page configuration',
  'config:write': 'change partner configuration, feature flags and HPP page configuration',
  'certification:read': 'read certification flows and re-certification requests',
  'certification:write': 'prepare a certification flow',
  'merchant:read': 'list and read merchants and their onboarding data',
  'merchant:write': 'create, change and submit merchants and their onboarding data',
  'transaction:read': 'list, read, summarise and export transactions',
  'transaction:write': 'create transactions (sales, follow-ups, ACH)',
  'hpp_session:read': 'read hosted payment page sessions',
  'hpp_session:write': 'create and cancel hosted payment page sessions',
  'customer:read': 'list and read customers',
  'customer:write': 'create, change and delete customers',
  'stored_credential:read': 'list and read stored credentials (vault entries)',
  'stored_credential:revoke': 'revoke stored credentials',
  'contract:read': 'list and read recurring contracts',
  'contract:write': 'create, change, pause, resume and cancel recurring contracts',
  'settlement:read': 'read settlement batches and reconciliation exceptions',
  'terminal:read': 'list and read terminals',
  'terminal:write': 'manage terminals',
  'webhook:read': 'read webhook endpoints, deliveries, metadata and event types',
  'webhook:write': 'create, change, delete webhook endpoints, rotate secrets, replay deliveries',
  'custom_fields:config:read': 'read custom-field configurations',
  'custom_fields:config:write': 'change custom-field configurations',
  'notification:read': 'read the notification feed (the feed left the contract in 2026-09)',
  'notification:update': 'mark notifications read (the feed left the contract in 2026-09)',
} as const;

export type Scope = keyof typeof PARTNER_SCOPES;

export const ALL_PARTNER_SCOPES = Object.keys(PARTNER_SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.prototype.hasOwnProperty.call(PARTNER_SCOPES, value);
}
