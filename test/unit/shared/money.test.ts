// Money at the edges, used by every screen and both provider APIs: naira as typed becomes exact
// kobo, kobo is shown as ₦ the Nigerian way, and each wire form round-trips without floating point.
import { describe, expect, it } from 'vitest';
import {
  formatNaira,
  koboToNairaString,
  koboToWire,
  MoneyFormatError,
  nairaStringToKobo,
  parseNaira,
  wireToKobo,
} from '../../../shared/money';

describe('formatNaira', () => {
  it.each([
    [0, '₦0.00'],
    [5, '₦0.05'],
    [350_000, '₦3,500.00'],
    [150_050, '₦1,500.50'],
    [123_456_789_01, '₦123,456,789.01'],
  ])('%i kobo is %s', (kobo, text) => {
    expect(formatNaira(kobo)).toBe(text);
  });

  it('refuses a fraction of a kobo rather than rounding it', () => {
    expect(() => formatNaira(1.5)).toThrow(MoneyFormatError);
  });
});

describe('parseNaira', () => {
  it.each([
    ['1500', 150_000],
    ['1,500', 150_000],
    ['1,500.5', 150_050],
    ['₦1,500.00', 150_000],
    ['  0.07 ', 7],
    ['1,234,567.89', 123_456_789],
  ])('"%s" is %i kobo', (typed, kobo) => {
    expect(parseNaira(typed)).toBe(kobo);
  });

  it.each(['', '1.234', '-5', '1,50', '12a', '1e3', '.5'])(
    '"%s" is refused with a message saying what to type',
    (typed) => {
      expect(() => parseNaira(typed)).toThrow(/is not an amount in naira \(for example 1500 or 1500\.50\)/);
    },
  );

  it('0.1 + 0.2 naira is exactly 30 kobo', () => {
    expect(parseNaira('0.1') + parseNaira('0.2')).toBe(parseNaira('0.3'));
  });
});

describe('wire forms', () => {
  it('POS: naira with two decimals, both ways', () => {
    expect(koboToNairaString(350_050)).toBe('3500.50');
    expect(koboToNairaString(7)).toBe('0.07');
    expect(nairaStringToKobo('3500')).toBe(350_000);
    expect(nairaStringToKobo('3500.5')).toBe(350_050);
    expect(() => nairaStringToKobo('3500.505')).toThrow(MoneyFormatError);
  });

  it('bills: whole kobo as digits, both ways', () => {
    expect(koboToWire(50_000)).toBe('50000');
    expect(wireToKobo('50000')).toBe(50_000);
    expect(wireToKobo(50_000)).toBe(50_000);
    expect(() => wireToKobo('500.00')).toThrow(MoneyFormatError);
    expect(() => wireToKobo('-1')).toThrow(MoneyFormatError);
  });
});
