// The folder drop's file names as pure rules: the outbox name is injective over every booking
// reference the code accepts (COLL:1 and COLL_1 never share a file) and always a plain file name;
// a rejected file's name always leaves room for `.reason.txt` and the temporary name around it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_NAME, outboxName, rejectedName } from '../../../core/integrations/drop-files';
import { BOOKING_REF, BookingReference } from '../../../shared/integration';

const NAME_MAX = 255;
/** `.<name>.<16 hex>.tmp`: the longest name written beside a file. */
const tmpOf = (name: string) => `.${name}.${'0'.repeat(16)}.tmp`;

describe('outbox names', () => {
  it('distinct references get distinct outbox names, each a plain file name that fits with its temporary name', () => {
    fc.assert(
      fc.property(fc.stringMatching(BOOKING_REF), fc.stringMatching(BOOKING_REF), (a, b) => {
        expect(BookingReference.safeParse(a).success).toBe(true);
        const na = outboxName(a);
        expect(na).toMatch(/^[A-Za-z0-9._%-]+\.json$/);
        expect(Buffer.byteLength(tmpOf(na))).toBeLessThanOrEqual(NAME_MAX);
        expect(na === outboxName(b)).toBe(a === b);
        expect(decodeURIComponent(na.slice(0, -'.json'.length))).toBe(a);
      }),
      { numRuns: 2_000 },
    );
  });

  it('COLL:1 and COLL_1 are two files', () => {
    expect(outboxName('COLL:1')).toBe('COLL%3A1.json');
    expect(outboxName('COLL_1')).toBe('COLL_1.json');
  });
});

describe('rejected names', () => {
  it('any name keeps room for its reason file and temporary name; short names stay as they are', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 250 }), (raw) => {
        const name = `${raw.replace(/[/\0]/g, 'x')}.json`;
        const kept = rejectedName(name);
        expect(Buffer.byteLength(tmpOf(`${kept}.reason.txt`))).toBeLessThanOrEqual(NAME_MAX);
        if (Buffer.byteLength(name) <= MAX_KEPT_NAME) expect(kept).toBe(name);
        else expect(kept).not.toBe(rejectedName(`${name}x`));
      }),
      { numRuns: 1_000 },
    );
  });
});
