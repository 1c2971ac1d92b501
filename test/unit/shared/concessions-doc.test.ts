// docs/concessions.md shows a catalogue as CSV and as JSON: both examples are read from the page as
// written and must parse, to the same catalogue, so the doc cannot drift from the parsers.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalogueCsv } from '../../../shared/catalogue-csv';
import { checkCatalogueJson } from '../../../shared/catalogue-json';

const DOC = readFileSync(resolve(__dirname, '../../../docs/concessions.md'), 'utf8');

/** The body of the one fenced block of this language on the page. */
function block(lang: string): string {
  const found = [...DOC.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))];
  expect(found, `one \`\`\`${lang} block in docs/concessions.md`).toHaveLength(1);
  return found[0]![1]!;
}

describe('docs/concessions.md', () => {
  it('shows a CSV catalogue and a JSON catalogue that parse, to the same catalogue', () => {
    const fromCsv = checkCatalogueCsv(block('csv'));
    const fromJson = checkCatalogueJson(block('json'));
    expect(fromCsv.errors).toEqual([]);
    expect(fromJson.errors).toEqual([]);
    expect(fromCsv.catalogue).not.toBeNull();
    expect(fromJson.catalogue).toEqual(fromCsv.catalogue);
    expect(fromCsv.catalogue?.items.find((i) => i.code === 'NACHO')?.priceKobo).toBe(200_050);
  });
});
