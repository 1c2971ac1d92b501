// The terminal in one state, one colour, one next step (the Terminal box and the status bar share it).
import { describe, expect, it } from 'vitest';
import { terminalVerdict } from '../../../renderer/src/stores/terminal-verdict';

describe('terminalVerdict', () => {
  it('is green only with a serial number to charge on', () => {
    expect(terminalVerdict({ status: 'connected', sn: 'PAX-A920-0001' })).toEqual({
      text: 'Connected',
      tone: 'good',
      next: null,
    });
    expect(terminalVerdict({ status: 'manual', sn: 'PAX-A920-0001' })).toEqual({
      text: 'SN typed by hand',
      tone: 'good',
      next: null,
    });
  });

  it('an open port that gave no serial number is no terminal, with the port named in the next step', () => {
    expect(terminalVerdict({ status: 'connected', sn: null, portPath: '/dev/ttyS0' })).toEqual({
      text: 'No terminal',
      tone: 'bad',
      next: 'Terminal not found on /dev/ttyS0: check the cable, or type the SN from its label.',
    });
    expect(terminalVerdict({ status: 'not-connected', sn: null })).toMatchObject({
      tone: 'bad',
      next: 'No terminal yet: choose its serial port, or type the SN from its label.',
    });
    expect(terminalVerdict({ status: 'connecting', sn: null })).toEqual({
      text: 'Connecting…',
      tone: 'info',
      next: null,
    });
  });
});
