import type { Environment } from '../../../partners/src/domain';
import { validateEndpointUrl } from './url-rules';
import type { WebhookEndpointOrNone } from './webhook-endpoint';
import {
  PrimaryWebhookEndpointManaged,
  WebhookEndpointInvalid,
  WebhookEndpointNotFound,
  WebhookReplayLimitReached,
  type FieldError,
} from './webhook-endpoint-errors';
import type { WebhookEndpointEvent } from './webhook-endpoint-events';
import {
  NO_ENDPOINT,
  REPLAY_LIMIT,
  REPLAY_WINDOW_MS,
  SECRET_OVERLAP_MS,
  nextEndpointState,
  type WebhookEndpointAction,
} from './webhook-endpoint-states';
import { SUBSCRIBABLE_EVENT_TYPES, isSubscribableEventType } from './webhook-event-types';

interface Base {
  endpointId: string;
  at: Date;
}

/** `enabled_events` as sent: `["*"]` (or omitted on create) means every subscribable type. */
export type EnabledEventsInput = unknown;

/**
 * The webhook endpoint's commands. Secrets arrive sealed (the application seals a fresh
 * `whsec_` secret under the vault key before it runs the command): the decider never sees one.
 */
export type WebhookEndpointCommand =
  | (Base & {
      type: 'CreateWebhookEndpoint';
      partnerId: string;
      url: unknown;
      enabledEvents?: EnabledEventsInput;
      sealedSecret: string;
      environment: Environment;
    })
  | (Base & {
      type: 'UpdateWebhookEndpoint';
      /** null or omitted: unchanged. */
      url?: unknown;
      enabledEvents?: EnabledEventsInput;
      environment: Environment;
    })
  | (Base & { type: 'RotateWebhookSecret'; sealedSecret: string })
  | (Base & { type: 'SuspendWebhookEndpoint'; failedDeliveries: number })
  | (Base & { type: 'ReenableWebhookEndpoint' })
  | (Base & { type: 'DeleteWebhookEndpoint' })
  | (Base & { type: 'ReplayWebhookDelivery'; deliveryId: string })
  | (Base & { type: 'SendWebhookTest'; testId: string })
  | (Base & {
      type: 'SyncPrimaryWebhookEndpoint';
      partnerId: string;
      /** The configuration's `webhook_url` after the change; null: cleared. */
      url: string | null;
      /** The partner stream revision of that change (a decimal string). */
      partnerRevision: string;
      /** Used only if the endpoint is (re)created. */
      sealedSecret: string;
    });

export type WebhookEndpointCommandType = WebhookEndpointCommand['type'];

const WILDCARD = '*';

/** `enabled_events` checked and normalised (catalog order, no duplicates); null means every type. */
export function parseEnabledEvents(value: EnabledEventsInput): {
  value: string[] | null;
  errors: FieldError[];
} {
  const field = 'enabled_events';
  if (!Array.isArray(value) || value.length === 0) {
    return {
      value: null,
      errors: [{ field, message: 'must be a non-empty array of event types, or ["*"] for every type' }],
    };
  }
  const errors: FieldError[] = [];
  value.forEach((entry: unknown, index) => {
    const at = `${field}[${index}]`;
    if (typeof entry !== 'string') errors.push({ field: at, message: 'must be a string' });
    else if (entry === WILDCARD) {
      if (value.length > 1) errors.push({ field: at, message: '"*" must be the only entry' });
    } else if (!isSubscribableEventType(entry)) {
      errors.push({ field: at, message: 'is not a subscribable event type (see GET /webhook-event-types)' });
    } else if (value.indexOf(entry) !== index) {
      errors.push({ field: at, message: 'is listed more than once' });
    }
  });
  if (errors.length > 0 || value[0] === WILDCARD) return { value: null, errors };
  return { value: SUBSCRIBABLE_EVENT_TYPES.filter((type) => value.includes(type)), errors };
}

/** The endpoint's decisions. Pure: time, ids and sealed secrets arrive with the command. */
export function decide(
  command: WebhookEndpointCommand,
  endpoint: WebhookEndpointOrNone,
): WebhookEndpointEvent[] {
  const at = command.at.toISOString();
  if (command.type === 'SyncPrimaryWebhookEndpoint') return syncPrimary(command, endpoint, at);

  const from = endpoint?.state ?? NO_ENDPOINT;
  const move = (action: WebhookEndpointAction) => nextEndpointState(from, action);

  if (command.type === 'CreateWebhookEndpoint') {
    move('create');
    const errors = validateEndpointUrl(command.url, command.environment);
    const events =
      command.enabledEvents === undefined || command.enabledEvents === null
        ? { value: null, errors: [] }
        : parseEnabledEvents(command.enabledEvents);
    errors.push(...events.errors);
    if (errors.length > 0) throw new WebhookEndpointInvalid(errors);
    return [
      {
        type: 'WebhookEndpointCreated',
        data: {
          endpointId: command.endpointId,
          partnerId: command.partnerId,
          url: command.url as string,
          enabledEvents: events.value,
          primary: false,
          secret: { sealed: command.sealedSecret, createdAt: at },
          createdAt: at,
        },
      },
    ];
  }

  // A deleted endpoint reads as absent to every command of the partner (its id is spent).
  if (!endpoint || endpoint.state === 'DELETED') throw new WebhookEndpointNotFound(command.endpointId);
  const ids = { endpointId: endpoint.id, partnerId: endpoint.partnerId };

  switch (command.type) {
    case 'UpdateWebhookEndpoint': {
      move('update');
      const changesUrl = command.url !== undefined && command.url !== null;
      if (changesUrl && endpoint.primary)
        throw new PrimaryWebhookEndpointManaged(endpoint.id, 'change the url of');
      const errors = changesUrl ? validateEndpointUrl(command.url, command.environment) : [];
      const events =
        command.enabledEvents === undefined || command.enabledEvents === null
          ? null
          : parseEnabledEvents(command.enabledEvents);
      errors.push(...(events?.errors ?? []));
      if (errors.length > 0) throw new WebhookEndpointInvalid(errors);
      const changes: { url?: string; enabledEvents?: string[] | null } = {};
      if (changesUrl && command.url !== endpoint.url) changes.url = command.url as string;
      if (events && !sameTypes(events.value, endpoint.enabledEvents)) changes.enabledEvents = events.value;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'WebhookEndpointUpdated', data: { ...ids, ...changes, updatedAt: at } }];
    }
    case 'RotateWebhookSecret':
      move('rotate_secret');
      return [
        {
          type: 'WebhookEndpointSecretRotated',
          data: {
            ...ids,
            secret: { sealed: command.sealedSecret, createdAt: at },
            previousExpiresAt: new Date(command.at.getTime() + SECRET_OVERLAP_MS).toISOString(),
            rotatedAt: at,
          },
        },
      ];
    case 'SuspendWebhookEndpoint':
      move('suspend');
      return [
        {
          type: 'WebhookEndpointSuspended',
          data: { ...ids, failedDeliveries: command.failedDeliveries, suspendedAt: at },
        },
      ];
    case 'ReenableWebhookEndpoint':
      move('reenable');
      return [{ type: 'WebhookEndpointReenabled', data: { ...ids, reenabledAt: at } }];
    case 'DeleteWebhookEndpoint':
      move('delete');
      if (endpoint.primary) throw new PrimaryWebhookEndpointManaged(endpoint.id, 'remove');
      return [{ type: 'WebhookEndpointDeleted', data: { ...ids, deletedAt: at } }];
    case 'ReplayWebhookDelivery': {
      move('replay');
      const windowStart = command.at.getTime() - REPLAY_WINDOW_MS;
      const recent = endpoint.replays.filter((time) => Date.parse(time) > windowStart);
      if (recent.length >= REPLAY_LIMIT) {
        const freesAt = Date.parse(recent[recent.length - REPLAY_LIMIT]) + REPLAY_WINDOW_MS;
        const seconds = Math.max(1, Math.ceil((freesAt - command.at.getTime()) / 1000));
        throw new WebhookReplayLimitReached(endpoint.id, REPLAY_LIMIT, seconds);
      }
      return [
        {
          type: 'WebhookDeliveryReplayRequested',
          data: { ...ids, deliveryId: command.deliveryId, requestedAt: at },
        },
      ];
    }
    case 'SendWebhookTest':
      move('send_test');
      return [
        { type: 'WebhookEndpointTestRequested', data: { ...ids, testId: command.testId, requestedAt: at } },
      ];
  }
}

/**
 * The primary endpoint follows the partner configuration's `webhook_url`. Changes are applied in
 * the partner stream's order: one whose revision is not newer than the last applied is ignored,
 * so a change delivered late (or twice) cannot undo a later one.
 */
function syncPrimary(
  command: Extract<WebhookEndpointCommand, { type: 'SyncPrimaryWebhookEndpoint' }>,
  endpoint: WebhookEndpointOrNone,
  at: string,
): WebhookEndpointEvent[] {
  const applied = endpoint?.primaryRevision;
  if (applied != null && BigInt(command.partnerRevision) <= BigInt(applied)) return [];
  const ids = { endpointId: command.endpointId, partnerId: command.partnerId };
  const synced: WebhookEndpointEvent = {
    type: 'PrimaryWebhookEndpointSynced',
    data: { ...ids, partnerRevision: command.partnerRevision, url: command.url, syncedAt: at },
  };
  const from = endpoint?.state ?? NO_ENDPOINT;
  if (command.url === null) {
    if (from === NO_ENDPOINT || from === 'DELETED') return endpoint ? [synced] : [];
    nextEndpointState(from, 'remove_primary');
    return [{ type: 'WebhookEndpointDeleted', data: { ...ids, deletedAt: at } }, synced];
  }
  if (from === NO_ENDPOINT || from === 'DELETED') {
    nextEndpointState(from, 'create_primary');
    return [
      {
        type: 'WebhookEndpointCreated',
        data: {
          ...ids,
          url: command.url,
          enabledEvents: null,
          primary: true,
          secret: { sealed: command.sealedSecret, createdAt: at },
          createdAt: at,
        },
      },
      synced,
    ];
  }
  nextEndpointState(from, 'repoint_primary');
  if (command.url === endpoint!.url) return [synced];
  return [{ type: 'WebhookEndpointUpdated', data: { ...ids, url: command.url, updatedAt: at } }, synced];
}

function sameTypes(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((type, index) => type === b[index]);
}
