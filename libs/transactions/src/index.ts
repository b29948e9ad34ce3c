export * from './domain';
export { TransactionsModule } from './transactions.module';
export { Charges } from './application/charge';
export { FollowUps } from './application/follow-up';
export { GatewayOutcomes } from './application/gateway-outcome';
export type { ChargeFacts, PaymentContext, RequestedPayment } from './application/payment-context';
export { TransactionReader } from './application/transaction-reader';
export { RunTransactionCommand } from './application/transaction-commands';
export { ALL_MERCHANTS, filterConditions, parseTransactionFilters } from './application/transaction-queries';
