export * from './domain';
export { CustomersModule } from './customers.module';
export { CustomerReader } from './application/customer-reader';
export { RunCustomerCommand } from './application/customer-commands';
