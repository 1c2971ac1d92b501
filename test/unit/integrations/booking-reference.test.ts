// The booking reference has one rule, the code's (shared/integration.ts): the OpenAPI document's
// patterns (path parameter and request body) and integration.md say the same, so a reference the
// docs allow is never refused by the counter, nor the other way round.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookingReference } from '../../../shared/integration';

const docs = resolve(__dirname, '../../../docs');
const openapi = readFileSync(resolve(docs, 'integration-openapi.json'), 'utf8');
const SAMPLES = [
  'BK-1',
  '_BK1',
  '.BK',
  '-BK',
  ':BK',
  'COLL:1',
  'COLL_1',
  'a',
  'A'.repeat(64),
  'A'.repeat(65),
  'BK 1',
  'BK/1',
  'BK%3A1',
  '',
];

describe('the booking reference rule', () => {
  it('every pattern the OpenAPI document gives a reference accepts exactly what the code accepts', () => {
    const doc = JSON.parse(openapi) as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema: { pattern: string } }[] }>>;
      components: {
        schemas: Record<'ChargeRequest' | 'ChargeLinesRequest', { properties: { reference: { pattern: string } } }>;
      };
    };
    const patterns = new Set<string>([
      doc.components.schemas.ChargeRequest.properties.reference.pattern,
      doc.components.schemas.ChargeLinesRequest.properties.reference.pattern,
    ]);
    for (const ops of Object.values(doc.paths))
      for (const op of Object.values(ops))
        for (const p of op.parameters ?? []) if (p.name === 'reference') patterns.add(p.schema.pattern);
    expect(patterns.size).toBe(1);
    const re = new RegExp([...patterns][0]!);
    for (const s of SAMPLES) expect(re.test(s), s).toBe(BookingReference.safeParse(s).success);
  });

  it('integration.md says a reference starts with a letter or digit (a leading _ is refused)', () => {
    expect(BookingReference.safeParse('_BK1').success).toBe(false);
    const md = readFileSync(resolve(docs, 'integration.md'), 'utf8');
    const sentence = /`reference`: your booking reference,[^]*?idempotency key/.exec(md)?.[0] ?? '';
    expect(sentence).toMatch(/starting\s+with a letter or digit/);
  });
});
