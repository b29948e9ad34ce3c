import { DomainError, NotFound } from '../../../platform/src/problem';

export class PartnerNotFound extends NotFound {
  constructor(readonly partnerId: string) {
    super('partner_not_found', `partner ${partnerId} does not exist`);
  }
}

export class PartnerAlreadyExists extends DomainError {
  readonly code = 'partner_already_exists';

  constructor(readonly partnerId: string) {
    super(`partner ${partnerId} already exists`);
  }
}
