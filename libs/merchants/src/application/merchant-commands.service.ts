import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { EventMetadata } from '../../../event-store/src';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import { ExecuteMerchantCommand, type MerchantCommandInput, type MerchantResult } from './merchant-commands';

/**
 * What every merchant write of the HTTP layer does: run the command with the request's metadata
 * (for the merchant's partner), then wait until `merchant-list` has it, so the list and every
 * read built on it answer the write at once.
 */
@Injectable()
export class MerchantCommands {
  constructor(
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
  ) {}

  async run(
    request: FastifyRequest,
    partnerId: string,
    command: MerchantCommandInput,
    metadata: Partial<EventMetadata> = {},
  ): Promise<MerchantResult> {
    const result = await this.commands.execute(
      new ExecuteMerchantCommand(command, { ...metadataOf(request, partnerId), ...metadata }),
    );
    if (result.position !== null) await this.projections.waitFor(result.position, ['merchant-list']);
    return result;
  }
}
