// terminal.configure through the contract: a real argument schema, and the admin PIN for anything
// that talks to a serial device or changes how its answers are read (port, speed, query, format).
// A serial number typed by hand needs no PIN: it is the cashier's way to keep selling when the
// cable fails, and it sends nothing to any device.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';

const ctx = { trusted: true, sender: 'test' };
let core: Core;
let logger: ReturnType<typeof memoryLogger>;
let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-terminal-configure-'));
  logger = memoryLogger();
  core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
    embeddedSandbox: false,
  });
});
afterEach(() => core.stop());

const configure = (args: unknown) => core.dispatch('terminal.configure', args, ctx);

describe('terminal.configure arguments', () => {
  it.each([
    ['an unknown field', { source: 'manual', manualSn: 'ABC123', regex: '.*' }],
    ['a format longer than any format can be', { pattern: `${'x'.repeat(5000)}{sn}` }],
    ['a port that is not text', { portPath: 42 }],
    ['an unknown source', { source: 'usb' }],
  ])('refuses %s before anything runs', async (_why, args) => {
    expect(await configure(args)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
  });
});

describe('who may change what', () => {
  beforeEach(async () => {
    expect(await core.dispatch('settings.setPin', { newPin: '2468' }, ctx)).toMatchObject({ ok: true });
    await core.dispatch('settings.lock', {}, ctx);
  });

  it('a typed serial number needs no PIN, and is logged', async () => {
    expect(await configure({ source: 'manual', manualSn: 'P2-0012-3456' })).toMatchObject({
      ok: true,
      value: { state: { sn: 'P2-0012-3456' } },
    });
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        msg: 'terminal serial number typed by hand',
        fields: expect.objectContaining({ sn: 'P2-0012-3456' }),
      }),
    );
  });

  it.each([
    ['a serial port', { source: 'serial', portPath: '/dev/ttyUSB7' }],
    ['the baud rate', { baudRate: 9600 }],
    ['the query written to the device', { query: 'AT+RESET\r\n' }],
    ['the serial number format', { pattern: 'TID:{sn}' }],
  ])('%s needs the admin PIN; nothing changes while Settings are locked', async (_what, args) => {
    const before = core.terminal.getSettings();
    expect(await configure(args)).toMatchObject({ ok: false, error: { code: 'PIN_REQUIRED' } });
    expect(core.terminal.getSettings()).toEqual(before);
    await core.dispatch('settings.unlock', { pin: '2468' }, ctx);
    expect(await configure(args)).toMatchObject({ ok: true, value: { settings: args } });
  });

  it('switching back to the serial port already chosen needs no PIN', async () => {
    await core.dispatch('settings.unlock', { pin: '2468' }, ctx);
    await configure({ source: 'serial', portPath: '/dev/ttyUSB7' });
    await core.dispatch('settings.lock', {}, ctx);
    expect(await configure({ source: 'manual', manualSn: 'P2-0012-3456' })).toMatchObject({ ok: true });
    expect(await configure({ source: 'serial' })).toMatchObject({
      ok: true,
      value: { settings: { source: 'serial', portPath: '/dev/ttyUSB7', manualSn: 'P2-0012-3456' } },
    });
  });

  it('with no admin PIN chosen yet, a port asks for one to be chosen', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'counterpay-terminal-configure-'));
    const c = await createCore({
      shell: 'browser',
      version: 't',
      dataDir: fresh,
      store: confStore(fresh),
      vault: fileVault(join(fresh, 'secrets.json')),
      logger,
      clock: systemClock,
      embeddedSandbox: false,
    });
    try {
      expect(await c.dispatch('terminal.configure', { portPath: '/dev/ttyUSB7' }, ctx)).toMatchObject({
        ok: false,
        error: { code: 'PIN_NOT_SET' },
      });
    } finally {
      await c.stop();
    }
  });
});
