import type { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { RunMerchantCommand, type MerchantCommandInput } from '../application/merchant-commands';
import type { Merchant } from '../domain/merchant';

/** A partner's merchant write: the command with the request's metadata; answers the merchant after it. */
export async function runMerchantCommand(
  commands: CommandBus,
  request: FastifyRequest,
  partnerId: string,
  command: MerchantCommandInput,
): Promise<Merchant> {
  return (await commands.execute(new RunMerchantCommand(command, metadataOf(request, partnerId)))).state;
}
