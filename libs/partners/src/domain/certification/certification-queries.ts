import type { CertificationFlow, CertificationState, RecertificationRequest } from './certification';
import { CertificationFlowNotFound, RecertificationRequestNotFound } from './certification-errors';

/** The reads behind the certification endpoints; each absence is a 404 of the contract. */

export function flowById(state: CertificationState, flowId: string): CertificationFlow {
  if (!Object.hasOwn(state.flows, flowId)) throw new CertificationFlowNotFound(flowId);
  return state.flows[flowId];
}

export function activeFlow(state: CertificationState): CertificationFlow {
  if (!state.activeFlowId) throw new CertificationFlowNotFound('active');
  return flowById(state, state.activeFlowId);
}

export function latestCompletedFlow(state: CertificationState): CertificationFlow {
  if (!state.latestCompletedFlowId) throw new CertificationFlowNotFound('latest-completed');
  return flowById(state, state.latestCompletedFlowId);
}

export function currentRecertificationRequest(state: CertificationState): RecertificationRequest {
  const id = state.currentRecertificationRequestId;
  if (!id || !Object.hasOwn(state.recertificationRequests, id)) throw new RecertificationRequestNotFound();
  return state.recertificationRequests[id];
}

/** The request the next flow will fulfil, if any. */
export function pendingRecertificationRequest(state: CertificationState): RecertificationRequest | null {
  const id = state.currentRecertificationRequestId;
  const request =
    id && Object.hasOwn(state.recertificationRequests, id) ? state.recertificationRequests[id] : null;
  return request?.state === 'PENDING' ? request : null;
}

/** The features the partner's last completed flow certified (none before the first). */
export function latestCompletedFlowFeatures(state: CertificationState): readonly string[] {
  const id = state.latestCompletedFlowId;
  return id && Object.hasOwn(state.flows, id) ? state.flows[id].features : [];
}
