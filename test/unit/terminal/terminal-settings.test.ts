import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SN_PATTERN,
  DEFAULT_SN_QUERY,
  defaultTerminalSettings,
  parseTerminalSettings,
  SerialPortInfoSchema,
  TerminalSettingsSchema,
  TerminalStateSchema,
  validateManualSn,
} from '../../../shared/terminal';

describe('TerminalSettingsSchema', () => {
  it('has working defaults', () => {
    expect(defaultTerminalSettings()).toEqual({
      portPath: null,
      baudRate: 115200,
      query: 'SN?\r\n',
      pattern: DEFAULT_SN_PATTERN,
      manualSn: null,
      source: 'serial',
    });
    expect(DEFAULT_SN_QUERY).toBe('SN?\u000d\u000a');
  });

  it('takes a full valid settings object, trimming the port and manual sn', () => {
    const s = TerminalSettingsSchema.parse({
      portPath: ' /dev/ttyUSB0 ',
      baudRate: '9600',
      query: '',
      pattern: 'TID:{sn}',
      manualSn: ' p2-001234 ',
      source: 'manual',
    });
    expect(s).toEqual({
      portPath: '/dev/ttyUSB0',
      baudRate: 9600,
      query: '',
      pattern: 'TID:{sn}',
      manualSn: 'p2-001234',
      source: 'manual',
    });
  });

  it('gives one message per wrong field', () => {
    const r = parseTerminalSettings({
      portPath: '',
      baudRate: 12345,
      query: 'SN?\u0000',
      pattern: '^SN:\\w+$',
      manualSn: 'AB',
      source: 'usb',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fields).toEqual({
      portPath: 'Choose a serial port',
      baudRate: expect.stringMatching(/standard baud rate: .*9600.*115200/),
      query: 'Only printable characters, CR and LF',
      pattern: expect.stringMatching(/\{sn\} exactly once/),
      manualSn: expect.stringMatching(/Too short: .*at least 6.*has 2/),
      source: "Choose 'serial' or 'manual'",
    });
  });

  it('refuses a baud rate that is not a number', () => {
    const r = parseTerminalSettings({ baudRate: 'fast' });
    expect(r).toMatchObject({ ok: false, fields: { baudRate: expect.any(String) } });
  });

  it('refuses a regular expression: formats are text with {sn}', () => {
    const r = parseTerminalSettings({ pattern: '([A-Z' });
    expect(r).toMatchObject({ ok: false, fields: { pattern: expect.stringMatching(/\{sn\} exactly once/) } });
  });

  it('refuses an overlong query', () => {
    expect(parseTerminalSettings({ query: 'Q'.repeat(65) })).toMatchObject({
      ok: false,
      fields: { query: 'At most 64 characters' },
    });
  });
});

describe('validateManualSn', () => {
  it.each([
    ['ABC123', 'ABC123'],
    ['  p2-0012-3456\t', 'p2-0012-3456'],
    ['ABCDEF', 'ABCDEF'],
    ['1'.repeat(32), '1'.repeat(32)],
  ])('accepts %j as %j', (input, sn) => {
    expect(validateManualSn(input)).toEqual({ ok: true, sn });
  });

  it.each([
    ['', /Enter the terminal's serial number/],
    ['   ', /Enter the terminal's serial number/],
    ['AB12', /Too short: .*has 4/],
    ['1'.repeat(33), /Too long: .*at most 32.*has 33/],
    ['ABC 123', /without spaces: letters, digits and - only/],
    ['ABC_123', /"_" is not allowed/],
    ['ABC\u0000123', /U\+0000 is not allowed/],
    ['ÀBC1234', /U\+00C0 is not allowed/],
    ['------', /not only dashes/],
  ])('refuses %j saying why', (input, message) => {
    const r = validateManualSn(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('refuses a value that is not text', () => {
    expect(validateManualSn(123456)).toMatchObject({ ok: false });
    expect(validateManualSn(null)).toMatchObject({ ok: false });
  });
});

describe('state and port list schemas', () => {
  it('accept what the link produces', () => {
    expect(
      TerminalStateSchema.parse({
        source: 'serial',
        status: 'connected',
        portPath: '/dev/ttyUSB0',
        sn: 'ABC123',
        lastError: null,
        lastSeenAt: 1,
      }),
    ).toBeTruthy();
    expect(SerialPortInfoSchema.parse({ path: 'COM3', manufacturer: 'PAX' })).toEqual({
      path: 'COM3',
      manufacturer: 'PAX',
    });
  });

  it('refuse an unknown status', () => {
    expect(
      TerminalStateSchema.safeParse({
        source: 'serial',
        status: 'online',
        portPath: null,
        sn: null,
        lastError: null,
        lastSeenAt: null,
      }).success,
    ).toBe(false);
  });
});
