// Box-office integrations: the local HTTP API, pairing, the charge desk and the callback queue.
export { createIntegrationsModule, type IntegrationsModuleDeps } from './integrations-module';
export {
  createIntegrations,
  type ApiPlacement,
  type Integrations,
  type IntegrationsDeps,
} from './integrations-service';
export { boxOfficeRules } from './box-office-rules';
export { INTEGRATION_MIGRATIONS } from './integration-migrations';
export type { ChargeOrigin } from './charge-desk';
