import { NotFound } from '../../../../platform/src/problem';

/** No such flow for this partner (by id, or no active or completed flow to show): 404. */
export class CertificationFlowNotFound extends NotFound {
  constructor(readonly which: string) {
    super('certification_flow_not_found', `certification flow ${which} does not exist`);
  }
}

/** The partner has never been asked to re-certify: 404. */
export class RecertificationRequestNotFound extends NotFound {
  constructor() {
    super('recertification_request_not_found', 'there is no re-certification request');
  }
}
