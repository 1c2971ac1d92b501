// docs/integration-openapi.json is the integration API as the code defines it: built from the
// wire's schemas and the one route list the server answers. Changing either without writing the
// document again (npx tsx scripts/integration-openapi.ts) fails here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationOpenApi } from '../../../shared/integration-openapi';
import { BasketTicketsSchema, ConcessionLineSchema } from '../../../shared/basket';
import { ChargeLinesRequestSchema, INTEGRATION_ROUTES } from '../../../shared/integration';
import { SaleInputSchema } from '../../../shared/orders';

const doc = JSON.parse(readFileSync(resolve(__dirname, '../../../docs/integration-openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string }>>;
  components: {
    schemas: Record<
      string,
      { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] }
    >;
  };
};

describe('the OpenAPI document', () => {
  it('is the one the code builds (routes and schemas)', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(integrationOpenApi())));
  });

  it('names every route the server answers, and no other', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(documented.sort()).toEqual(INTEGRATION_ROUTES.map((r) => `${r.method} ${r.path} ${r.name}`).sort());
  });

  it('describes the sale with the Sell form’s fields, less the terminal and the cashier’s own decision', () => {
    const sale = doc.components.schemas.ChargeRequest!.properties.sale!.properties!;
    expect(Object.keys(sale).sort()).toEqual(
      Object.keys(SaleInputSchema.shape)
        .filter((k) => k !== 'sn' && k !== 'besideWaiting')
        .sort(),
    );
  });

  it('describes the lines form with the basket’s own fields: the tickets, the concession lines, a card tender', () => {
    const lines = doc.components.schemas.ChargeLinesRequest!;
    const props = lines.properties as Record<
      string,
      { properties?: Record<string, unknown>; items?: { properties: Record<string, unknown> } }
    >;
    expect(Object.keys(props).sort()).toEqual(Object.keys(ChargeLinesRequestSchema.shape).sort());
    expect(Object.keys(props.tickets!.properties!).sort()).toEqual(
      Object.keys(BasketTicketsSchema.shape)
        .filter((k) => k !== 'showKey')
        .sort(),
    );
    expect(Object.keys(props.concessions!.items!.properties).sort()).toEqual(
      Object.keys(ConcessionLineSchema.shape).sort(),
    );
    expect(props.tender).toMatchObject({ properties: { kind: { const: 'card' } }, additionalProperties: false });
    expect(lines.required).toEqual(['reference']);
  });
});
