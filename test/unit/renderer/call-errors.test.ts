// What the cashier sees when a call fails: field messages only from VALIDATION / BAD_ARGUMENTS
// (and only text ones), one plain sentence for everything else.
import { describe, expect, it } from 'vitest';
import { errorText, fieldErrorsOf, formErrorsOf } from '../../../renderer/src/stores/call-errors';
import { AppError } from '../../../shared/errors';

describe('fieldErrorsOf', () => {
  it('takes the text messages of a validation error, field by field', () => {
    const e = new AppError('VALIDATION', 'Check the sale', {
      fields: { priceKobo: 'Enter the price', seats: 'Seat F7 twice', bogus: 42 },
    });
    expect(fieldErrorsOf(e)).toEqual({ priceKobo: 'Enter the price', seats: 'Seat F7 twice' });
  });

  it('reads BAD_ARGUMENTS the same way', () => {
    expect(fieldErrorsOf(new AppError('BAD_ARGUMENTS', 'bad', { fields: { id: 'Too small' } }))).toEqual({
      id: 'Too small',
    });
  });

  it('has no field messages for other errors, or errors without fields', () => {
    expect(fieldErrorsOf(new AppError('PROVIDER_TIMEOUT', 'late', { fields: { x: 'y' } }))).toEqual({});
    expect(fieldErrorsOf(new AppError('VALIDATION', 'no fields'))).toEqual({});
    expect(fieldErrorsOf(new Error('plain'))).toEqual({});
    expect(fieldErrorsOf('a string')).toEqual({});
  });
});

describe('errorText', () => {
  it("says a call main does not know is not ready, instead of the engineer's message", () => {
    expect(errorText(new AppError('UNKNOWN_CALL', 'There is no call named "x".'))).toBe(
      'This part of CounterPay is not ready yet. Please tell IT.',
    );
  });

  it("passes the AppError's cashier message through, and anything else as text", () => {
    expect(errorText(new AppError('PROVIDER_UNREACHABLE', 'The payment provider cannot be reached.'))).toBe(
      'The payment provider cannot be reached.',
    );
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText(404)).toBe('404');
  });
});

describe('formErrorsOf', () => {
  const keyOf = (k: string) => (k.split('.')[0] === 'seats' || k === 'sn' ? (k.split('.')[0] as 'seats' | 'sn') : null);

  it('puts named messages on their fields (first one wins) and shows the first loose one beside them', () => {
    const e = new AppError('VALIDATION', 'Check the sale', {
      fields: { 'seats.0': 'Seat F7 twice', 'seats.1': 'Seat F8 twice', other: 'Loose one', sn: 'No terminal' },
    });
    expect(formErrorsOf(e, keyOf)).toEqual({
      errors: { seats: 'Seat F7 twice', sn: 'No terminal' },
      message: 'Loose one',
      first: 'seats',
    });
  });

  it('shows the error itself when no field is named', () => {
    expect(
      formErrorsOf(new AppError('VALIDATION', 'Check the sale', { fields: { other: 'Loose one' } }), keyOf),
    ).toEqual({ errors: {}, message: 'Check the sale', first: null });
    expect(formErrorsOf(new Error('boom'), keyOf)).toEqual({ errors: {}, message: 'boom', first: null });
  });
});
