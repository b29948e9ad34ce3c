/** The settlement read models a settlement write waits for before it answers (lists show it at once). */
export const SETTLEMENT_READ_MODELS = [
  'transaction-list',
  'settlement-batch-list',
  'reconciliation-exception-list',
];
