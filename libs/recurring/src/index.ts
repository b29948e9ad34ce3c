export * from './domain';
export { RecurringModule } from './recurring.module';
export { ContractReader } from './application/contract-reader';
export { ContractScheduler, RECURRING_WORKERS } from './application/contract-scheduler';
export { recurringGauges } from './application/recurring-metrics';
export { HostedPlans, contractIdForSession, type HostedPlanInput } from './application/hosted-plans';
export { RunContractCommand, CONTRACT_LIST } from './application/contract-commands';
