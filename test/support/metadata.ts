import type { EventMetadata } from '../../libs/event-store/src';

/** Event metadata for tests: a system actor and no request, unless the test says otherwise. */
export function testMetadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actor: 'system:test',
    partner_id: null,
    request_id: null,
    idempotency_key: null,
    causation_id: null,
    correlation_id: null,
    ...overrides,
  };
}
