// The folder drop of the composed core against what anyone on the computer can put in its folders
// (real files, real symbolic links in a real temporary folder): links are refused, not followed;
// a file still being written is not judged; overlong names are set aside once; outbox names are
// distinct per reference and written through exclusive, unpredictable temporary names; a file for
// a reference charged over HTTP gets its outcome; a 503 leaves the file; the request file is
// removed only after its charge is journaled.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChargeView } from '../../../shared/integration';
import { api, twoSeats } from '../../helpers/integration-kit';
import { orderReaches } from '../../helpers/core-events';
import { call, dropFile, folderDropKit } from '../../helpers/folder-drop-counter';

const kit = folderDropKit('counterpay-drop-hostile-');
afterEach(() => kit.stopAll());
const counterWithDrop = () => kit.counterWithDrop({ makeFolders: true });

const backdate = (file: string) => {
  const t = new Date(Date.now() - 60_000);
  utimesSync(file, t, t);
};

const outcome = (outbox: string, name: string) => JSON.parse(readFileSync(join(outbox, name), 'utf8')) as ChargeView;

describe('folder drop: hostile files', () => {
  it('a symbolic link in the inbox is set aside with a reason and never charged; what it points to is untouched', async () => {
    const { dir, core, drop, folders } = await counterWithDrop();
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify(twoSeats('BK-LINK')));
    symlinkSync(elsewhere, join(folders.inbox, 'link.json'));
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    expect(lstatSync(join(folders.rejected, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(folders.rejected, 'link.json.reason.txt'), 'utf8')).toMatch(
      /symbolic link, not an ordinary file/,
    );
    expect(core.checkout.listToday()).toHaveLength(0);
    expect(JSON.parse(readFileSync(elsewhere, 'utf8'))).toMatchObject({ reference: 'BK-LINK' });
  });

  it('a file written slowly under its final name is not judged while incomplete, and is charged once complete', async () => {
    const { core, drop, folders } = await counterWithDrop();
    const text = JSON.stringify(twoSeats('BK-SLOW'));
    const file = join(folders.inbox, 'BK-SLOW.json');
    writeFileSync(file, text.slice(0, 40));
    await drop.scanNow();
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual(['BK-SLOW.json']);
    expect(readdirSync(folders.rejected)).toEqual([]);
    appendFileSync(file, text.slice(40));
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    expect(outcome(folders.outbox, 'BK-SLOW.json')).toMatchObject({ reference: 'BK-SLOW' });
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('a bad file with a 245-byte name is set aside (its reason kept under a shorter name), logged once, not every scan', async () => {
    const { drop, folders, logger } = await counterWithDrop();
    const name = `${'x'.repeat(240)}.json`;
    expect(Buffer.byteLength(name)).toBe(245);
    dropFile(folders.inbox, name, '{"reference": ');
    backdate(join(folders.inbox, name));
    for (let i = 0; i < 3; i++) await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    const kept = readdirSync(folders.rejected).filter((n) => !n.endsWith('.reason.txt'));
    expect(kept).toHaveLength(1);
    const reason = readFileSync(join(folders.rejected, `${kept[0]!}.reason.txt`), 'utf8');
    expect(reason).toMatch(/not valid JSON/);
    expect(reason).toContain(name);
    const dropLines = logger.lines.filter((l) => /folder drop/.test(JSON.stringify(l)));
    expect(dropLines).toHaveLength(1);
    expect(JSON.stringify(logger.lines)).not.toMatch(/ENAMETOOLONG/);
  });

  it('COLL:1 and COLL_1 get distinct outbox files (the reference percent-encoded)', async () => {
    const { drop, folders } = await counterWithDrop();
    dropFile(folders.inbox, 'a.json', JSON.stringify(twoSeats('COLL:1')));
    dropFile(
      folders.inbox,
      'b.json',
      JSON.stringify(twoSeats('COLL_1', { sale: { ...twoSeats('x').sale, seats: 'G1,G2' } })),
    );
    await drop.scanNow();
    expect(readdirSync(folders.outbox).sort()).toEqual(['COLL%3A1.json', 'COLL_1.json']);
    expect(outcome(folders.outbox, 'COLL%3A1.json').reference).toBe('COLL:1');
    expect(outcome(folders.outbox, 'COLL_1.json').reference).toBe('COLL_1');
  });

  it('an outcome is written through an exclusive temporary name: a link planted at the old predictable name is not followed', async () => {
    const { dir, drop, folders } = await counterWithDrop();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(folders.outbox, `BK-TMP.json.${process.pid}.tmp`));
    // A link planted at the outcome's own name is replaced, never written through.
    const victim2 = join(dir, 'victim2.txt');
    writeFileSync(victim2, 'precious too\n');
    symlinkSync(victim2, join(folders.outbox, 'BK-TMP.json'));
    dropFile(folders.inbox, 'BK-TMP.json', JSON.stringify(twoSeats('BK-TMP')));
    await drop.scanNow();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(victim2, 'utf8')).toBe('precious too\n');
    expect(lstatSync(join(folders.outbox, 'BK-TMP.json')).isFile()).toBe(true);
    expect(outcome(folders.outbox, 'BK-TMP.json').reference).toBe('BK-TMP');
    // No temporary file is left behind but the planted one.
    expect(readdirSync(folders.outbox).filter((n) => n.endsWith('.tmp'))).toEqual([`BK-TMP.json.${process.pid}.tmp`]);
  });
});

describe('folder drop: its promises', () => {
  it('a request file for a reference already charged over HTTP gets its outbox file, which follows the charge to paid', async () => {
    const { core, drop, folders, key } = await counterWithDrop();
    const base = core.integrations.apiUrl()!;
    const asked = await api<ChargeView>(base, key, 'POST', '/v1/charges', twoSeats('BK-BOTH'));
    expect(asked.status).toBe(201);
    dropFile(folders.inbox, 'BK-BOTH.json', JSON.stringify(twoSeats('BK-BOTH')));
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    expect(outcome(folders.outbox, 'BK-BOTH.json')).toMatchObject({
      reference: 'BK-BOTH',
      outOrderNo: asked.body.outOrderNo,
    });
    expect(core.checkout.listToday()).toHaveLength(1);
    const order = core.checkout.getByOutOrderNo(asked.body.outOrderNo)!;
    if (core.checkout.get(order.id)!.state !== 'waiting') await orderReaches(core, order.id, 'waiting');
    const paid = orderReaches(core, order.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    expect(outcome(folders.outbox, 'BK-BOTH.json')).toMatchObject({ state: 'paid', final: true });
  });

  it('with no terminal (503) the file stays in the inbox, logged once, and is charged when a terminal is back', async () => {
    const { core, drop, folders, logger } = await counterWithDrop();
    const sn = core.terminal.getState().sn;
    expect(sn).toBeTruthy();
    core.terminal.setManualSn(null);
    expect(core.terminal.getState().sn).toBeNull();
    dropFile(folders.inbox, 'BK-LATER.json', JSON.stringify(twoSeats('BK-LATER')));
    for (let i = 0; i < 3; i++) await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual(['BK-LATER.json']);
    expect(readdirSync(folders.rejected)).toEqual([]);
    expect(core.checkout.listToday()).toHaveLength(0);
    expect(logger.lines.filter((l) => /folder drop/.test(JSON.stringify(l)))).toHaveLength(1);
    core.terminal.setManualSn(sn);
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    expect(outcome(folders.outbox, 'BK-LATER.json').reference).toBe('BK-LATER');
  });

  it('the request file is still in the inbox when its charge is journaled (a crash in between loses nothing)', async () => {
    const { core, drop, folders } = await counterWithDrop();
    const file = join(folders.inbox, 'BK-JRNL.json');
    const seen: boolean[] = [];
    core.checkout.on('order', () => seen.push(existsSync(file)));
    dropFile(folders.inbox, 'BK-JRNL.json', JSON.stringify(twoSeats('BK-JRNL')));
    await drop.scanNow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('a folder of the drop replaced by a link pauses that drop instead of writing through it', async () => {
    const { dir, drop, folders, core } = await counterWithDrop();
    const away = join(dir, 'away');
    mkdirSync(away);
    renameSync(folders.rejected, join(dir, 'old-rejected'));
    symlinkSync(away, folders.rejected);
    dropFile(folders.inbox, 'bad.json', '{');
    backdate(join(folders.inbox, 'bad.json'));
    await drop.scanNow();
    expect(readdirSync(away)).toEqual([]);
    expect(readdirSync(folders.inbox)).toEqual(['bad.json']);
    expect(core.checkout.listToday()).toHaveLength(0);
  });
});
