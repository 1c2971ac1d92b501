// The branch's concessions catalogue from a real Hub (PGlite in memory, HTTP on loopback) into a
// composed counter core (Demo profile, real SQLite files) through its real relay stream: uploaded
// before the counter joins, it comes in when the counter's stream connects; with a programme on the
// branch, a newer upload is told at once (the upload moves the programme's version on) and replaces
// the counter's copy, which Settings → Concessions then shows as the Hub's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confStore } from '../../../browser-shell/boot';
import { createCore, type Core } from '../../../core/app-core';
import { fileVault } from '../../../core/settings/secret-vault';
import { createManager } from '../../../hub/store/managers';
import { catalogueCsv } from '../../../shared/catalogue-csv';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import { systemClock } from '../../../shared/clock';
import type { CatalogueView } from '../../../shared/contract-catalogue';
import type { HubLinkView } from '../../../shared/hub-link';
import { memoryLogger } from '../../../shared/logger';
import { lagosDate } from '../../../shared/time';
import { Manager } from '../../hub/helpers/dashboard-client';
import { issueCode, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';

const ctx = { trusted: true, sender: 'test' };
const PIN = '2468';
const PW = 'head office password 1';

async function call<T>(core: Core, name: string, args: unknown = {}): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { code: r.error.code });
  return r.value as T;
}
describe('the catalogue from the Hub reaches a counter', () => {
  let hub: TestHub;
  let core: Core | null = null;
  let HO: Manager;

  beforeAll(async () => {
    hub = await startTestHub();
    await createManager(hub.db, { name: 'HO', password: PW, role: 'head-office', branch: null }, hub.ctx.now());
    HO = new Manager(hub.url);
    expect((await HO.login('HO', PW)).status).toBe(200);
  });
  afterAll(async () => {
    await core?.stop();
    await hub?.stop();
  });

  it('uploaded before the counter joins: in on connect; a newer one with a programme: told at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'counterpay-cat-hub-'));
    const c = (core = await createCore({
      shell: 'browser',
      version: 't',
      dataDir: dir,
      store: confStore(dir),
      vault: fileVault(join(dir, 'secrets.json')),
      logger: memoryLogger(),
      clock: systemClock,
    }));
    await call(c, 'settings.setPin', { newPin: PIN });
    const p = await call<{ settings: Record<string, unknown> }>(c, 'settings.getProfile', { profile: 'demo' });
    await call(c, 'settings.saveProfile', { profile: 'demo', settings: { ...p.settings, counterName: 'Counter 7' } });
    // The Demo profile's own catalogue until the Hub's comes.
    expect((await call<CatalogueView>(c, 'catalogue.get')).source?.kind).toBe('demo');

    const own = (await call<{ settings: Record<string, unknown> }>(c, 'settings.getProfile', { profile: 'demo' }))
      .settings;
    const merchant = String(own.merchantId);
    const water: Catalogue = {
      ...DEMO_CATALOGUE,
      items: DEMO_CATALOGUE.items.map((i) => (i.code === 'WATER' ? { ...i, stock: 12 } : i)),
    };
    expect(
      (await HO.post('/catalogue/import', { branch: merchant, text: catalogueCsv(water), format: 'csv' })).json
        .imported,
    ).toBe(true);

    const joined = new Promise<CatalogueView>((resolve) => {
      const off = c.events.subscribe((n, v) => {
        if (n === 'catalogue.changed' && (v as CatalogueView).source?.kind === 'hub') {
          off();
          resolve(v as CatalogueView);
        }
      });
    });
    const v = await call<HubLinkView>(c, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub, 60, merchant) });
    expect(v.branch).toBe(merchant);
    const first = await joined;
    expect(first.items.find((i) => i.code === 'WATER')).toMatchObject({ stock: 12 });

    // A programme on the branch, then a newer catalogue: told on the stream, in at once.
    const day = lagosDate(Date.now());
    const programme = {
      films: [{ name: 'Dune 2', title: 'DUNE', rating: '12A' }],
      screens: ['Screen 1'],
      shows: [
        {
          film: 'Dune 2',
          screen: 'Screen 1',
          date: day,
          time: '23:30',
          ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
        },
      ],
    };
    expect((await HO.put('/programme', { branch: merchant, programme })).status).toBe(200);
    const second = new Promise<CatalogueView>((resolve) => {
      const off = c.events.subscribe((n, x) => {
        const cv = x as CatalogueView;
        if (n === 'catalogue.changed' && cv.source?.kind === 'hub' && !cv.items.some((i) => i.code === 'NACHO')) {
          off();
          resolve(cv);
        }
      });
    });
    const fewer: Catalogue = {
      items: DEMO_CATALOGUE.items.filter((i) => i.code !== 'NACHO'),
      combos: DEMO_CATALOGUE.combos,
    };
    expect(
      (await HO.post('/catalogue/import', { branch: merchant, text: catalogueCsv(fewer), format: 'csv' })).json
        .imported,
    ).toBe(true);
    const got = await second;
    expect(got.items.map((i) => i.code)).toEqual(fewer.items.map((i) => i.code));
  });
});
