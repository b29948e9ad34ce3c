/** Every customer event lives on `customer-{id}` (CONTRACT §2 stream names). */
export const customerStream = (customerId: string): string => `customer-${customerId}`;

export const CUSTOMER_STREAM_PREFIX = 'customer-';
