// The folder drop of the composed core (Demo profile, real files): a charge request file in the
// inbox becomes one charge; its outcome file in the outbox is rewritten atomically to the final
// state; a malformed or conflicting file is moved aside with a reason file; nothing half-written.
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChargeView } from '../../../shared/integration';
import { twoSeats } from '../../helpers/integration-kit';
import { orderReaches } from '../../helpers/core-events';
import { call, dropFile, folderDropKit } from '../../helpers/folder-drop-counter';

const kit = folderDropKit('counterpay-drop-');
afterEach(() => kit.stopAll());
const counterWithDrop = () => kit.counterWithDrop({ makeFolders: false });

describe('folder drop', () => {
  it('a request file becomes one charge; its outcome file ends paid; the same file again changes nothing', async () => {
    const { core, drop, folders } = await counterWithDrop();
    await drop.scanNow(); // makes the folders
    dropFile(folders.inbox, 'BK-F1.json', JSON.stringify(twoSeats('BK-F1')));
    // A file still being written (hidden, temporary) is left alone.
    writeFileSync(join(folders.inbox, '.BK-F2.json.partial'), '{"reference": "BK-F2", "amou');
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual(['.BK-F2.json.partial']);
    const outcomeFile = join(folders.outbox, 'BK-F1.json');
    const first = JSON.parse(readFileSync(outcomeFile, 'utf8')) as ChargeView;
    expect(first).toMatchObject({ reference: 'BK-F1', integration: 'Old box office', amountKobo: 350_000 });
    const order = core.checkout.getByOutOrderNo(first.outOrderNo)!;
    if (core.checkout.get(order.id)!.state !== 'waiting') await orderReaches(core, order.id, 'waiting');
    const paid = orderReaches(core, order.id, 'paid');
    await call(core, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    expect(JSON.parse(readFileSync(outcomeFile, 'utf8'))).toMatchObject({ state: 'paid', final: true });
    // Dropped again (a box office that retries): the same charge, no second order.
    dropFile(folders.inbox, 'BK-F1.json', JSON.stringify(twoSeats('BK-F1')));
    await drop.scanNow();
    expect(core.checkout.listToday()).toHaveLength(1);
    expect(readdirSync(folders.outbox).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await call(core, 'integrations.originOf', { orderId: order.id })).toMatchObject({
      reference: 'BK-F1',
      source: 'folder',
    });
  });

  it('malformed and conflicting files are moved aside with a reason file; nothing is charged for them', async () => {
    const { core, drop, folders } = await counterWithDrop();
    await drop.scanNow();
    dropFile(folders.inbox, 'broken.json', '{"reference": "BK-F3", "amountKobo": ');
    // Not valid JSON and unchanged for a minute: judged at once (a fresh one waits to stop changing).
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(join(folders.inbox, 'broken.json'), aMinuteAgo, aMinuteAgo);
    dropFile(
      folders.inbox,
      'seats.json',
      JSON.stringify(twoSeats('BK-F4', { sale: { ...twoSeats('x').sale, seats: 'F7' } })),
    );
    await drop.scanNow();
    expect(readdirSync(folders.inbox)).toEqual([]);
    expect(readFileSync(join(folders.rejected, 'broken.json.reason.txt'), 'utf8')).toMatch(/not valid JSON/);
    expect(readFileSync(join(folders.rejected, 'seats.json.reason.txt'), 'utf8')).toMatch(
      /VALIDATION[\s\S]*sale\.seats: 1 seat listed for 2 tickets/,
    );
    expect(existsSync(join(folders.rejected, 'broken.json'))).toBe(true);
    expect(core.checkout.listToday()).toHaveLength(0);
    // A reference reused for another sale.
    dropFile(folders.inbox, 'a.json', JSON.stringify(twoSeats('BK-F5')));
    await drop.scanNow();
    dropFile(
      folders.inbox,
      'b.json',
      JSON.stringify(twoSeats('BK-F5', { amountKobo: 320_000, sale: { ...twoSeats('x').sale, priceKobo: 135_000 } })),
    );
    await drop.scanNow();
    expect(readFileSync(join(folders.rejected, 'b.json.reason.txt'), 'utf8')).toMatch(
      /^REFERENCE_REUSED: Booking reference BK-F5/,
    );
    expect(core.checkout.listToday()).toHaveLength(1);
  });

  it('takes the lines form too: a basket file is one charge with its lines; a cash tender is moved aside naming tender.kind', async () => {
    const { core, drop, folders } = await counterWithDrop();
    await drop.scanNow();
    dropFile(
      folders.inbox,
      'snacks.json',
      JSON.stringify({ reference: 'BK-F6', concessions: [{ code: 'POPS', quantity: 2 }] }),
    );
    dropFile(
      folders.inbox,
      'cash.json',
      JSON.stringify({
        reference: 'BK-F7',
        concessions: [{ code: 'POPS', quantity: 2 }],
        tender: { kind: 'cash', tenderedKobo: 500_000 },
      }),
    );
    await drop.scanNow();
    const outcome = JSON.parse(readFileSync(join(folders.outbox, 'BK-F6.json'), 'utf8')) as ChargeView;
    expect(outcome).toMatchObject({
      reference: 'BK-F6',
      amountKobo: 300_000,
      basket: { amounts: { totalKobo: 300_000 } },
    });
    expect(readFileSync(join(folders.rejected, 'cash.json.reason.txt'), 'utf8')).toMatch(
      /^VALIDATION[\s\S]*tender\.kind: .*no cash drawer/,
    );
    expect(core.checkout.listToday().map((o) => o.outOrderNo)).toEqual([outcome.outOrderNo]);
  });
});
