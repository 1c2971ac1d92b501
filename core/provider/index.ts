// The provider module's public face: the two clients, their types and the error helpers.
export * from './types';
export { createBillsClient } from './bills-client';
export { createPosClient } from './pos-client';
export { isOutcomeUnknown, isAlreadyExists, isProviderError, notConfiguredError } from './provider-errors';
export type { ConfigSource } from './provider-config';
export { PosOrderWire, toPosOrderDetails } from './pos-schemas';
export { describeIssues, parseJson } from './answer-utils';
export { createProviderLink, type ProviderLink } from './provider-link';
