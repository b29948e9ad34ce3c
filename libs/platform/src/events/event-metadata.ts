/**
 * Who and what caused an event. Every state change in the system carries this, so an operator
 * replaying a stream can tell who asked for it, through which request and idempotency key.
 * It lives in platform (not in the event store) because requests, workers and tests build it
 * long before anything is stored; the event store re-exports it.
 */
export interface EventMetadata {
  /** `operator`, `partner:<partnerId>:key:<keyId>`, `system:<worker>`, ... */
  actor: string;
  partner_id: string | null;
  request_id: string | null;
  idempotency_key: string | null;
  /** The id of the event or request that caused this one. */
  causation_id: string | null;
  /** The id shared by every event of one business flow. */
  correlation_id: string | null;
}
