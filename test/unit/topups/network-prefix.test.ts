// The airtime network from a Nigerian number's prefix, however it was typed.
import { describe, expect, it } from 'vitest';
import { networkFromPrefix } from '../../../shared/topups';

describe('networkFromPrefix', () => {
  it('reads the first four digits of the national number', () => {
    expect(networkFromPrefix('0803 123 4567')).toBe('MTN');
    expect(networkFromPrefix('+234 802 123 4567')).toBe('AIR');
    expect(networkFromPrefix('2348051234567')).toBe('GLO');
    expect(networkFromPrefix('00234 809 123 4567')).toBe('ETI');
    expect(networkFromPrefix('0916')).toBe('MTN');
  });
  it('says nothing until four digits are typed, or for a prefix it does not know', () => {
    expect(networkFromPrefix('080')).toBeNull();
    expect(networkFromPrefix('0800 123 4567')).toBeNull();
    expect(networkFromPrefix('')).toBeNull();
  });
});
