// Settings and keys files that cannot be read at start: moved aside (kept), the last good copy
// used, a notice for the banner; with no good copy the app starts in Demo, never a dead end.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecoveryNotice } from '../../../shared/backups';
import { openDataFolder } from '../../../core/data-folder/open-data-folder';
import { boot, call, tempDataDir, type BootedShell } from './boot-helpers';

const running: BootedShell[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});
async function start(dir: string) {
  const app = await boot(dir);
  running.push(app);
  return app;
}

async function setUp(dir: string) {
  const app = await start(dir);
  await call(app, 'settings.setPin', { newPin: '2468' });
  const view = await call<{ settings: Record<string, unknown> }>(app, 'settings.getProfile', { profile: 'demo' });
  await call(app, 'settings.saveProfile', {
    profile: 'demo',
    settings: { ...view.settings, counterName: 'Lekki VIP 12' },
    secrets: {},
  });
  await running.pop()!.close();
}

const damaged = (dir: string, name: string) => readdirSync(dir).filter((n) => n.startsWith(`${name}.damaged-`));

describe('a settings file that cannot be read', () => {
  it('is kept aside and the last good copy is used, with a notice', async () => {
    const dir = tempDataDir();
    await setUp(dir);
    writeFileSync(join(dir, 'settings.json'), '{broken');
    const app = await start(dir);
    expect((await call<{ counterName: string }>(app, 'status.get')).counterName).toBe('Lekki VIP 12');
    expect((await call<{ set: boolean }>(app, 'settings.pinStatus')).set).toBe(true);
    const notices = await call<RecoveryNotice[]>(app, 'recovery.notices');
    expect(notices.map((n) => n.kind)).toEqual(['settings-restored']);
    expect(notices[0]!.message).toMatch(/last good copy/);
    const kept = damaged(dir, 'settings.json');
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe('{broken');
    expect(notices[0]!.keptAs).toBe(join(dir, kept[0]!));
    expect(await call<RecoveryNotice[]>(app, 'recovery.dismiss')).toEqual([]);
  });

  it('with no good copy, starts in Demo with default settings and says so', async () => {
    const dir = tempDataDir();
    await setUp(dir);
    rmSync(join(dir, 'settings.last-good.json'));
    writeFileSync(join(dir, 'settings.json'), '{"activeProfile": "production", "adminPinHash": "x"'); // cut short
    const app = await start(dir);
    const status = await call<{ profile: string }>(app, 'status.get');
    expect(status.profile).toBe('demo');
    expect((await call<{ set: boolean }>(app, 'settings.pinStatus')).set).toBe(false); // first run: the admin chooses a PIN
    expect((await call<RecoveryNotice[]>(app, 'recovery.notices')).map((n) => n.kind)).toEqual(['settings-reset']);
    expect(damaged(dir, 'settings.json')).toHaveLength(1);
  });
});

describe('a keys file that cannot be read', () => {
  it('is kept aside and the last good copy of the keys is used', async () => {
    const dir = tempDataDir();
    await setUp(dir);
    const good = readFileSync(join(dir, 'secrets.json'), 'utf8');
    writeFileSync(join(dir, 'secrets.json'), good.slice(0, good.length / 2));
    const app = await start(dir);
    expect((await call<RecoveryNotice[]>(app, 'recovery.notices')).map((n) => n.kind)).toEqual(['keys-restored']);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toBe(good);
    expect(damaged(dir, 'secrets.json')).toHaveLength(1);
    await call(app, 'settings.unlock', { pin: '2468' });
    const view = await call<{ secrets: Record<string, { set: boolean }> }>(app, 'settings.getProfile', {
      profile: 'demo',
    });
    expect(view.secrets.posClientAuthKey?.set).toBe(true);
  });

  it('with no good copy, starts and asks for the keys again', async () => {
    const dir = tempDataDir();
    await setUp(dir);
    rmSync(join(dir, 'secrets.last-good.json'));
    writeFileSync(join(dir, 'secrets.json'), '[not json');
    const app = await start(dir);
    expect((await call<RecoveryNotice[]>(app, 'recovery.notices')).map((n) => n.kind)).toEqual(['keys-reset']);
    expect(existsSync(join(dir, damaged(dir, 'secrets.json')[0]!))).toBe(true);
  });
});

describe('a data folder from before last good copies existed', () => {
  it('gets its first good copy when the folder is opened, before anything is saved', async () => {
    const dir = tempDataDir();
    await setUp(dir);
    rmSync(join(dir, 'settings.last-good.json'));
    const folder = openDataFolder(dir, {
      now: Date.now(),
      jsonFiles: [{ file: join(dir, 'settings.json'), what: 'settings' }],
    });
    folder.lock.release();
    expect(readFileSync(join(dir, 'settings.last-good.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'settings.json'), 'utf8'),
    );
    writeFileSync(join(dir, 'settings.json'), '');
    const app = await start(dir);
    expect((await call<{ counterName: string }>(app, 'status.get')).counterName).toBe('Lekki VIP 12');
  });
});
