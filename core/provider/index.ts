// The provider module's public face: the two clients, their types and the error helpers.
export * from './types';
export { createBillsClient, type BillsClientDeps } from './bills-client';
export { createPosClient, type PosClientDeps, POS_API_VERSION, POS_PATHS } from './pos-client';
export {
  isOutcomeUnknown,
  isAlreadyExists,
  isProviderError,
  notConfiguredError,
  PROVIDER_ERROR_CODES,
  type ProviderErrorCode,
} from './provider-errors';
export type { ConfigSource } from './provider-config';
export { PosOrderWire, toPosOrderDetails } from './pos-schemas';
export { describeIssues, parseJson } from './answer-utils';
export { createProviderLink, type ProviderLink } from './provider-link';
