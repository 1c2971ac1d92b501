// A batch file checked before anything is sent: errors by line and column, the header, the row
// limit, references unique in the file and for the merchant.
import { describe, expect, it } from 'vitest';
import { checkBatchFile } from '../../../core/topups/batch-rows';
import type { ProviderList } from '../../../core/topups/topup-input';

const providers: ProviderList = {
  providers: [
    { provider: 'BET9JA', providerLogoUrl: '', minAmountKobo: 10_000, maxAmountKobo: 50_000_000 },
    { provider: 'NAIRABET', providerLogoUrl: '', minAmountKobo: null, maxAmountKobo: null },
  ],
  missingReason: '',
};
const check = (text: string, taken: string[] = [], list: ProviderList = providers) =>
  checkBatchFile(text, { providers: list, referenceTaken: (r) => taken.includes(r) });

describe('checkBatchFile', () => {
  it('keeps good rows (normalised) and lists every problem by line and column', () => {
    const r = check(
      [
        'type,provider,customerId,amount,reference',
        'airtime,MTN,0803 123 4567,500,',
        'Airtime,airtel,2348051234567,"1,000.50",MY-REF-1',
        'betting,bet9ja,20001,100,',
        'airtime,VODA,0803 123 456,abc,',
        'betting,BET9JA,20001,99.99,',
        'lottery,X,1,1,',
        'betting,SPORTY,x y,5,MY-REF-1',
        '',
      ].join('\r\n'),
    );
    expect(r.fatal).toBe(false);
    expect(r.totalRows).toBe(7);
    expect(r.badRows).toBe(4);
    expect(r.rows).toEqual([
      { serviceType: 'airtime', provider: 'MTN', customerId: '+2348031234567', amountKobo: 50_000, line: 2 },
      {
        serviceType: 'airtime',
        provider: 'AIR',
        customerId: '+2348051234567',
        amountKobo: 100_050,
        line: 3,
        reference: 'MY-REF-1',
      },
      { serviceType: 'betting', provider: 'BET9JA', customerId: '20001', amountKobo: 10_000, line: 4 },
    ]);
    const at = (line: number) => r.errors.filter((e) => e.line === line).map((e) => [e.column, e.message]);
    expect(at(5)).toEqual([
      ['provider', expect.stringMatching(/"VODA" is not a network/)],
      ['customerId', expect.stringMatching(/Too short/)],
      ['amount', expect.stringMatching(/"abc" is not an amount/)],
    ]);
    expect(at(6)).toEqual([['amount', 'BET9JA: the smallest amount is ₦100.00']]);
    expect(at(7)).toEqual([['type', expect.stringMatching(/"lottery" is not a top-up type/)]]);
    expect(at(8).map((e) => e[0])).toEqual(['customerId', 'provider', 'reference']);
    expect(at(8)[2]![1]).toMatch(/also on line 3/);
  });

  it('refuses references already used by the merchant', () => {
    const r = check('type,provider,customerId,amount,reference\nairtime,MTN,08031234567,100,OLD-1\n', ['OLD-1']);
    expect(r.rows).toEqual([]);
    expect(r.errors).toEqual([
      { line: 2, column: 'reference', message: expect.stringMatching(/already used by this merchant/) },
    ]);
  });

  it('names a missing column, a semicolon file and an empty file as problems of the whole file', () => {
    expect(check('type,provider,amount\nairtime,MTN,100\n')).toMatchObject({
      fatal: true,
      errors: [{ line: 1, column: 'customerId', message: expect.stringMatching(/missing: customerId/) }],
    });
    expect(check('type;provider;customerId;amount\n')).toMatchObject({
      fatal: true,
      errors: [{ line: 1, message: expect.stringMatching(/separated by semicolons/) }],
    });
    expect(check('')).toMatchObject({ fatal: true, errors: [{ line: 0, message: expect.stringMatching(/empty/) }] });
    expect(check('type,provider,customerId,amount\n\n')).toMatchObject({
      fatal: true,
      errors: [{ message: expect.stringMatching(/no rows/) }],
    });
  });

  it('accepts header names people write, in any order, and ignores extra columns', () => {
    const r = check('Amount (₦),Network,Phone Number,Type,Notes\n200,glo,08051234567,airtime,for Ada\n');
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { serviceType: 'airtime', provider: 'GLO', customerId: '+2348051234567', amountKobo: 20_000, line: 2 },
    ]);
  });

  it('says what an unquoted comma in an amount did', () => {
    const r = check('type,provider,customerId,amount\nairtime,MTN,08031234567,1,500\n');
    expect(r.errors[0]).toMatchObject({ line: 2, column: '', message: expect.stringMatching(/comma inside a value/) });
  });

  it('refuses betting rows when no providers list could be loaded, saying why', () => {
    const r = check('type,provider,customerId,amount\nbetting,BET9JA,20001,500\nairtime,MTN,08031234567,500\n', [], {
      providers: null,
      missingReason: 'The betting providers list could not be loaded.',
    });
    expect(r.rows).toHaveLength(1);
    expect(r.errors).toEqual([
      { line: 2, column: 'provider', message: 'The betting providers list could not be loaded.' },
    ]);
  });

  it('refuses a file of more than 10,000 rows as a whole', () => {
    const lines = ['type,provider,customerId,amount'];
    for (let i = 0; i < 10_001; i++) lines.push('airtime,MTN,08031234567,100');
    const r = check(lines.join('\n'));
    expect(r.fatal).toBe(true);
    expect(r.totalRows).toBe(10_001);
    expect(r.errors[0]).toMatchObject({
      line: 10_002,
      message: expect.stringMatching(/at most 10,000 rows; this file has 10,001/),
    });
  });
});
