// Writes docs/integration-openapi.json from the wire's schemas (shared/integration-openapi.ts).
// Run after changing the integration API: npx tsx scripts/integration-openapi.ts
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { integrationOpenApi } from '../shared/integration-openapi';

writeFileSync(
  resolve(__dirname, '../docs/integration-openapi.json'),
  `${JSON.stringify(integrationOpenApi(), null, 2)}\n`,
);
