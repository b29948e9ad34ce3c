export * from './domain';
export { TransactionsModule } from './transactions.module';
export {
  CustomFieldsInvalid,
  GatewayOutcomeUnknown,
  MerchantNotTransactable,
  Payments,
} from './application/payments';
export { TransactionReader } from './application/transaction-reader';
export { RunTransactionCommand } from './application/transaction-commands';
export {
  ALL_MERCHANTS,
  filterConditions,
  parseInstant,
  parseTransactionFilters,
} from './application/transaction-queries';
