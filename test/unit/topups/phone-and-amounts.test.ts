// Nigerian mobile numbers as cashiers type them, and ₦ amounts against their bounds.
import { describe, expect, it } from 'vitest';
import {
  AIRTIME_BOUNDS,
  airtimeNetworkOf,
  checkAmount,
  checkBettingCustomerId,
  localPhone,
  normalizeNigerianMobile,
} from '../../../shared/topups';

describe('normalizeNigerianMobile', () => {
  it.each([
    ['0803 123 4567', '+2348031234567'],
    ['08031234567', '+2348031234567'],
    ['0803-123-4567', '+2348031234567'],
    ['(0803) 123 4567', '+2348031234567'],
    ['2348031234567', '+2348031234567'],
    ['+234 803 123 4567', '+2348031234567'],
    ['+234 (0) 803 123 4567', '+2348031234567'],
    ['+23408031234567', '+2348031234567'],
    ['002348031234567', '+2348031234567'],
    ['803 123 4567', '+2348031234567'],
    ['0701 234 5678', '+2347012345678'],
    ['0906 000 1111', '+2349060001111'],
    ['08100000000', '+2348100000000'],
  ])('%s -> %s', (input, e164) => {
    const r = normalizeNigerianMobile(input);
    expect(r).toMatchObject({ ok: true, e164 });
  });

  it.each([
    ['', /Enter the phone number/],
    ['0803 ABC 4567', /digits only/],
    ['0803*123*4567', /Only digits/],
    ['0803 123 456', /Too short/],
    ['0803 123 45678', /Too long/],
    ['+44 7700 900123', /Only Nigerian numbers/],
    ['01 234 5678', /Too short/],
    ['0123 456 7890', /012 is not a Nigerian mobile prefix/],
    ['0603 123 4567', /060 is not a Nigerian mobile prefix/],
    ['0853 123 4567', /085 is not a Nigerian mobile prefix/],
  ])('refuses %j, saying why', (input, why) => {
    const r = normalizeNigerianMobile(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(why);
  });

  it('reads a number back in local form', () => {
    expect(localPhone('+2348031234567')).toBe('0803 123 4567');
    const r = normalizeNigerianMobile('08031234567');
    expect(r.ok && r.display).toBe('+234 803 123 4567');
  });
});

describe('amounts and ids', () => {
  it('parses naira exactly and checks bounds before anything is sent', () => {
    expect(checkAmount('1,500.50', { minKobo: null, maxKobo: null }, 'X')).toEqual({ ok: true, kobo: 150_050 });
    expect(checkAmount('₦500', AIRTIME_BOUNDS, 'MTN airtime')).toEqual({ ok: true, kobo: 50_000 });
    expect(checkAmount('49.99', AIRTIME_BOUNDS, 'MTN airtime')).toMatchObject({
      ok: false,
      reason: 'MTN airtime: the smallest amount is ₦50.00',
    });
    expect(checkAmount('50001', AIRTIME_BOUNDS, 'MTN airtime')).toMatchObject({
      ok: false,
      reason: 'MTN airtime: the largest amount is ₦50,000.00',
    });
    expect(checkAmount('0', { minKobo: null, maxKobo: null }, 'X')).toMatchObject({
      ok: false,
      reason: /more than ₦0.00/,
    });
    expect(checkAmount('12.345', { minKobo: null, maxKobo: null }, 'X')).toMatchObject({
      ok: false,
      reason: /not an amount in naira/,
    });
    expect(checkAmount(' ', { minKobo: null, maxKobo: null }, 'X')).toMatchObject({
      ok: false,
      reason: /Enter the amount/,
    });
  });

  it('knows the networks by code and by name', () => {
    expect(airtimeNetworkOf('airtel')).toBe('AIR');
    expect(airtimeNetworkOf('9mobile')).toBe('ETI');
    expect(airtimeNetworkOf('Etisalat')).toBe('ETI');
    expect(airtimeNetworkOf(' glo ')).toBe('GLO');
    expect(airtimeNetworkOf('MTN')).toBe('MTN');
    expect(airtimeNetworkOf('Vodafone')).toBeNull();
  });

  it('keeps "/" and non-ASCII out of betting customer ids', () => {
    expect(checkBettingCustomerId(' nb-30002 ')).toEqual({ ok: true, value: 'nb-30002' });
    expect(checkBettingCustomerId('a/b').ok).toBe(false);
    expect(checkBettingCustomerId('Ọlá').ok).toBe(false);
    expect(checkBettingCustomerId('two words').ok).toBe(false);
    expect(checkBettingCustomerId('').ok).toBe(false);
  });
});
