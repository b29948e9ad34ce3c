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

export class ApiKeyNotFound extends NotFound {
  constructor(readonly keyId: string) {
    super('api_key_not_found', `API key ${keyId} does not exist`);
  }
}
