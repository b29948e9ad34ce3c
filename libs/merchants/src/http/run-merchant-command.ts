import type { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { RequestRecord } from '../../../platform/src/idempotency/request-record';
import { RunMerchantCommand, type MerchantCommandInput } from '../application/merchant-commands';
import type { Merchant } from '../domain/merchant';

/**
 * A partner's merchant write: the command with the request's metadata; answers the merchant after
 * it. With `answer` (the route's answer built from that merchant) the write is the request's last,
 * and its answer is stored in the same commit (docs/adr/0008-write-path.md).
 */
export async function runMerchantCommand(
  commands: CommandBus,
  request: FastifyRequest,
  partnerId: string,
  command: MerchantCommandInput,
  answer?: (merchant: Merchant) => unknown,
): Promise<Merchant> {
  if (answer) RequestRecord.current()?.answerWith((state) => answer(state as Merchant));
  return (
    await commands.execute(
      new RunMerchantCommand(command, metadataOf(request, partnerId), { final: answer !== undefined }),
    )
  ).state;
}
