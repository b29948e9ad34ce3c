import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src';
import { PartnersModule } from '../../partners/src';
import { TransactionsModule } from '../../transactions/src';
import { VaultModule } from '../../vault/src';
import { ContractBilling } from './application/contract-billing';
import { RunContractCommandHandler } from './application/contract-commands';
import { ContractReader } from './application/contract-reader';
import { ContractScheduler } from './application/contract-scheduler';
import { HostedPlans } from './application/hosted-plans';
import { ContractList } from './application/list-contracts';
import { PartnerContracts } from './application/partner-contracts';
import { ContractsController } from './http/contracts.controller';
import { PlatformRecurringController } from './http/platform-recurring.controller';

/**
 * Recurring contracts: subscriptions and installment plans on a stored payment method, their
 * schedule, and the scheduler that charges them through the transaction command path.
 */
@Module({
  imports: [PartnersModule, MerchantsModule, VaultModule, TransactionsModule],
  controllers: [ContractsController, PlatformRecurringController],
  providers: [
    RunContractCommandHandler,
    ContractReader,
    ContractList,
    PartnerContracts,
    ContractBilling,
    ContractScheduler,
    HostedPlans,
  ],
  exports: [ContractReader, HostedPlans, ContractScheduler],
})
export class RecurringModule {}
