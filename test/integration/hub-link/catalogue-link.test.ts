// The counter's pull of its branch's concessions catalogue from a real Hub (PGlite in memory, HTTP
// on loopback): nothing before a manager uploads one; the upload's version and catalogue after it,
// once (a tell with nothing newer changes nothing); a newer upload again; a copy the counter holds
// at a newer version is kept; another branch's upload never reaches it; a Hub that cannot be reached
// leaves the copy as it was. The upload moves the branch's programme version on (so the relay's
// `event: programme` tells the counters to pull).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueLink, type CataloguePort } from '../../../core/hub-link/catalogue-link';
import { createHubClient, type HubConnection } from '../../../core/hub-link/link-client';
import { createManager } from '../../../hub/store/managers';
import { catalogueCsv } from '../../../shared/catalogue-csv';
import { DEMO_CATALOGUE, type Catalogue } from '../../../shared/catalogue';
import { memoryLogger } from '../../../shared/logger';
import { lagosDate } from '../../../shared/time';
import { Manager } from '../../hub/helpers/dashboard-client';
import { bearer, enroll, get, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';

const PW = 'manager password 1';

class Copy implements CataloguePort {
  held: { version: number; catalogue: Catalogue } | null = null;
  replaced = 0;
  heldVersion() {
    return this.held?.version ?? null;
  }
  replace(version: number, catalogue: Catalogue) {
    this.held = { version, catalogue };
    this.replaced += 1;
  }
}

describe("the counter pulls its branch's catalogue from the Hub", () => {
  let hub: TestHub;
  let conn: HubConnection;
  let M1: Manager;
  let M2: Manager;
  const logger = memoryLogger();
  const link = (copy: Copy, c: HubConnection = conn) =>
    new CatalogueLink({ catalogue: copy, connection: () => c, client: createHubClient(), logger, running: () => true });

  beforeAll(async () => {
    hub = await startTestHub();
    await createManager(hub.db, { name: 'M1', password: PW, role: 'branch', branch: 'B1' }, hub.ctx.now());
    await createManager(hub.db, { name: 'M2', password: PW, role: 'branch', branch: 'B2' }, hub.ctx.now());
    const e = await enroll(hub, 'Lane 1', 'B1');
    conn = { url: hub.url, counterId: e.counterId, credential: e.credential, branch: 'B1' };
    M1 = new Manager(hub.url);
    M2 = new Manager(hub.url);
    expect((await M1.login('M1', PW)).status).toBe(200);
    expect((await M2.login('M2', PW)).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it('nothing before an upload; then the upload, once; a newer one again; a newer copy kept; another branch never', async () => {
    const copy = new Copy();
    await link(copy).told();
    expect(copy.replaced).toBe(0);

    // A programme first: the upload moves its version on.
    const day = lagosDate(Date.now());
    const programme = {
      films: [{ name: 'Dune 2', title: 'DUNE', rating: '12A' }],
      screens: ['Screen 1'],
      shows: [
        {
          film: 'Dune 2',
          screen: 'Screen 1',
          date: day,
          time: '19:30',
          ticketTypes: [{ name: 'Adult', priceKobo: 450_000, bookingFeeKobo: 0 }],
        },
      ],
    };
    expect((await M1.put('/programme', { programme })).status).toBe(200);
    const before = (await get(`${hub.url}/api/v1/programme`, bearer(conn.credential))).json.version as number;

    const water: Catalogue = {
      ...DEMO_CATALOGUE,
      items: DEMO_CATALOGUE.items.map((i) => (i.code === 'WATER' ? { ...i, stock: 12 } : i)),
    };
    expect((await M1.post('/catalogue/import', { text: catalogueCsv(water), format: 'csv' })).json.imported).toBe(true);
    expect((await get(`${hub.url}/api/v1/programme`, bearer(conn.credential))).json.version).toBe(before + 1);
    await link(copy).told();
    expect(copy.held).toEqual({ version: 1, catalogue: water });
    await link(copy).told();
    expect(copy.replaced).toBe(1);

    // Another branch's upload is not this counter's.
    const other: Catalogue = {
      items: [{ code: 'CHIN', name: 'Chin chin', category: 'Snacks', priceKobo: 50_000, soldOut: false }],
      combos: [],
    };
    expect((await M2.post('/catalogue/import', { text: catalogueCsv(other), format: 'csv' })).json.imported).toBe(true);
    await link(copy).told();
    expect(copy.replaced).toBe(1);

    expect(
      (await M1.post('/catalogue/import', { text: catalogueCsv(DEMO_CATALOGUE), format: 'csv' })).json.imported,
    ).toBe(true);
    await link(copy).told();
    expect(copy.held).toEqual({ version: 2, catalogue: DEMO_CATALOGUE });

    const newer = new Copy();
    newer.held = { version: 9, catalogue: other };
    await link(newer).told();
    expect(newer.held).toEqual({ version: 9, catalogue: other });
  });

  it('a Hub that cannot be reached leaves the copy as it was', async () => {
    const copy = new Copy();
    await link(copy, { ...conn, url: 'http://127.0.0.1:9' }).told();
    expect(copy.replaced).toBe(0);
    expect(logger.lines.some((l) => l.msg.includes('the catalogue could not be fetched'))).toBe(true);
  });
});
