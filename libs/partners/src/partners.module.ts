import { Module } from '@nestjs/common';
import { PARTNER_COMMAND_HANDLERS } from './application/partner-commands';

/** Partners: the first aggregate. HTTP routes arrive with the operator tier (issue #4). */
@Module({ providers: [...PARTNER_COMMAND_HANDLERS] })
export class PartnersModule {}
