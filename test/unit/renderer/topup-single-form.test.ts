// The Single top-up form's rules as the cashier meets them: which field is wrong and why, the
// number read back in full, the amount bounds of the chosen provider, main's field names mapped
// onto the form, and a late answer never undoing a newer one.
import { describe, expect, it } from 'vitest';
import {
  checkSingle,
  emptySingle,
  formFieldOf,
  newerTopup,
  type SingleDraft,
} from '../../../renderer/src/stores/topup-form';
import type { BettingProviderView, TopupView } from '../../../shared/topups';

const PROVIDERS: BettingProviderView[] = [
  { provider: 'BET9JA', providerLogoUrl: '', minAmountKobo: 10_000, maxAmountKobo: 50_000_000 },
  { provider: 'NAIRABET', providerLogoUrl: '', minAmountKobo: null, maxAmountKobo: null },
];
const airtime: SingleDraft = { ...emptySingle('airtime'), network: 'MTN', phone: '0803 123 4567', amount: '500' };
const betting: SingleDraft = { ...emptySingle('betting'), provider: 'BET9JA', customerId: '20001', amount: '1,500.50' };

describe('checkSingle: airtime', () => {
  it('a good draft: no errors, the number in full, the amount in kobo, the counter limits', () => {
    const r = checkSingle(airtime, PROVIDERS);
    expect(r.errors).toEqual({});
    expect(r.phoneDisplay).toBe('+234 803 123 4567');
    expect(r.amountKobo).toBe(50_000);
    expect(r.boundsHint).toBe('₦50.00 to ₦50,000.00');
    expect(r.provider).toBeNull();
  });

  it('an empty form names every field the cashier must fill', () => {
    const r = checkSingle(emptySingle('airtime'), PROVIDERS);
    expect(Object.keys(r.errors).sort()).toEqual(['amount', 'network', 'phone']);
    expect(r.errors.network).toBe('Choose the network');
    expect(r.amountKobo).toBeNull();
    expect(r.phoneDisplay).toBeNull();
  });

  it('a foreign number and an amount above the limit say what to fix, naming the network', () => {
    const r = checkSingle({ ...airtime, phone: '+44 7700 900123', amount: '60000' }, PROVIDERS);
    expect(r.errors.phone).toBe('Only Nigerian numbers (+234) can be topped up here');
    expect(r.errors.amount).toBe('MTN airtime: the largest amount is ₦50,000.00');
  });

  it('an amount typed in kobo by mistake is caught below the smallest airtime', () => {
    expect(checkSingle({ ...airtime, amount: '20' }, PROVIDERS).errors.amount).toBe(
      'MTN airtime: the smallest amount is ₦50.00',
    );
  });
});

describe('checkSingle: betting', () => {
  it("a good draft uses the chosen provider's bounds", () => {
    const r = checkSingle(betting, PROVIDERS);
    expect(r.errors).toEqual({});
    expect(r.amountKobo).toBe(150_050);
    expect(r.provider?.provider).toBe('BET9JA');
    expect(r.bounds).toEqual({ minKobo: 10_000, maxKobo: 50_000_000 });
    expect(r.boundsHint).toBe('₦100.00 to ₦500,000.00');
  });

  it('below the provider minimum names the provider', () => {
    expect(checkSingle({ ...betting, amount: '99.99' }, PROVIDERS).errors.amount).toBe(
      'BET9JA: the smallest amount is ₦100.00',
    );
  });

  it('a provider without limits takes any positive amount', () => {
    const r = checkSingle({ ...betting, provider: 'NAIRABET', amount: '1000000' }, PROVIDERS);
    expect(r.errors).toEqual({});
    expect(r.boundsHint).toBe('any amount');
  });

  it('no provider chosen, or an empty list that must be refreshed first', () => {
    expect(checkSingle({ ...betting, provider: '' }, PROVIDERS).errors.provider).toBe('Choose the betting provider');
    expect(checkSingle(betting, []).errors.provider).toBe('The providers list is empty: refresh it');
  });

  it('a customer id with a space or a slash is refused before anything is sent', () => {
    expect(checkSingle({ ...betting, customerId: 'chi nedu' }, PROVIDERS).errors.customerId).toMatch(/letters, digits/);
    expect(checkSingle({ ...betting, customerId: 'a/b' }, PROVIDERS).errors.customerId).toMatch(/letters, digits/);
  });

  it('zero is not an amount', () => {
    expect(checkSingle({ ...betting, amount: '0' }, PROVIDERS).errors.amount).toBe(
      'The amount must be more than ₦0.00',
    );
  });
});

describe('formFieldOf', () => {
  it.each([
    ['amount', 'airtime', 'amount'],
    ['customerId', 'airtime', 'phone'],
    ['customerId', 'betting', 'customerId'],
    ['provider', 'airtime', 'network'],
    ['provider', 'betting', 'provider'],
    ['reference', 'betting', null],
  ] as const)("main's %s on %s lands on %s", (server, service, field) => {
    expect(formFieldOf(server, service)).toBe(field);
  });
});

describe('newerTopup', () => {
  const view = (over: Partial<TopupView>): TopupView => ({
    id: 1,
    reference: 'COU1-T261121-0001',
    batchId: null,
    line: null,
    serviceType: 'airtime',
    provider: 'MTN',
    customerId: '+2348031234567',
    customerName: null,
    amountKobo: 50_000,
    state: 'pending',
    providerStatus: 'PENDING',
    orderNo: null,
    errorMsg: '',
    attempts: 1,
    createdAt: 1,
    updatedAt: 10,
    ...over,
  });

  it('a newer view replaces the current one; an older one does not', () => {
    expect(
      newerTopup(view({ updatedAt: 10 }), view({ updatedAt: 11, providerStatus: 'SUCCESS', state: 'success' })).state,
    ).toBe('success');
    expect(newerTopup(view({ updatedAt: 12 }), view({ updatedAt: 11, state: 'unknown' })).state).toBe('pending');
  });

  it('a final state is never undone by a late open one, whatever its time', () => {
    const done = view({ state: 'success', updatedAt: 10 });
    expect(newerTopup(done, view({ state: 'pending', updatedAt: 99 }))).toBe(done);
  });

  it('a final view wins even with an older time', () => {
    expect(newerTopup(view({ updatedAt: 20 }), view({ state: 'fail', updatedAt: 15 })).state).toBe('fail');
  });

  it('another top-up simply replaces it', () => {
    expect(newerTopup(view({ id: 1, state: 'success' }), view({ id: 2, updatedAt: 0 })).id).toBe(2);
    expect(newerTopup(null, view({ id: 3 })).id).toBe(3);
  });
});
