/** Any UUID in its 8-4-4-4-12 hex form, of any version (record ids, filters, path ids). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID of versions 1 to 8 with the RFC 9562 variant: what the platform itself mints. Used
 * where a value names a record the platform created (a parent transaction, a hosted-page session
 * in a payer's URL), so a hand-made look-alike is refused before any lookup.
 */
export const VERSIONED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
