import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import { ExecuteCustomerCommand, type CustomerCommandInput, type CustomerResult } from './customer-commands';

/**
 * What every customer write of the HTTP layer does: run the command with the request's metadata
 * (for the customer's partner), then wait until `customer-list` has it, so the list answers the
 * write at once (a created customer is listed, a deleted one is gone).
 */
@Injectable()
export class CustomerCommands {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
  ) {}

  async run(
    request: FastifyRequest,
    partnerId: string,
    command: CustomerCommandInput,
  ): Promise<CustomerResult> {
    const result = await this.commands.execute(
      new ExecuteCustomerCommand(command, metadataOf(request, partnerId)),
    );
    if (result.position !== null) await this.projections.waitFor(result.position, ['customer-list']);
    return result;
  }
}
