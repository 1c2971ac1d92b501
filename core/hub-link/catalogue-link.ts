// The branch's concessions catalogue from the Hub (a manager's upload on the dashboard): pulled
// whenever the Hub tells the programme's version (on connect and on every change; a catalogue upload
// moves that version on too), and handed to the catalogue's one way in when the Hub's is newer than
// the counter's copy. The counter's catalogue module (core/catalogue) gives the port.
import type { Catalogue } from '../../shared/catalogue';
import { HUB_CATALOGUE_PATH, HubCatalogueSchema } from '../../shared/hub-sales-contract';
import type { Logger } from '../../shared/logger';
import { HubCallError, type HubClient } from './link-client';
import type { HubConnectionSource } from './link-types';

const CATALOGUE_TIMEOUT_MS = 8_000;

/** The counter's catalogue: the Hub version of its copy (null: none from the Hub), and the one way in (`source: 'hub'`). */
export interface CataloguePort {
  heldVersion(counterId: string): number | null;
  replace(version: number, catalogue: Catalogue, counterId: string): void;
}

interface CatalogueLinkDeps {
  catalogue: CataloguePort;
  connection: HubConnectionSource;
  client: HubClient;
  logger: Logger;
  running(): boolean;
}

export class CatalogueLink {
  /** The pull under way; a tell meanwhile pulls once more after it. */
  private pulling: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: CatalogueLinkDeps) {}

  /** The Hub told the programme's version: the catalogue may have changed with it. Resolves when the pull is done. */
  told(): Promise<void> {
    if (this.pulling) {
      this.again = true;
      return this.pulling;
    }
    this.pulling = (async () => {
      do {
        this.again = false;
        await this.pull();
      } while (this.again);
    })().finally(() => (this.pulling = null));
    return this.pulling;
  }

  private async pull(): Promise<void> {
    const { catalogue: port, connection, client, logger } = this.deps;
    const c = connection();
    if (!c || !this.deps.running()) return;
    try {
      const got = await client.call(c, 'GET', HUB_CATALOGUE_PATH, undefined, HubCatalogueSchema, {
        timeoutMs: CATALOGUE_TIMEOUT_MS,
      });
      if (got.catalogue === null || got.version === 0) return;
      const held = port.heldVersion(c.counterId);
      if (held !== null && got.version <= held) return;
      port.replace(got.version, got.catalogue, c.counterId);
      logger.info('hub: catalogue received', { version: got.version, items: got.catalogue.items.length });
    } catch (e) {
      // The next tell (every connect) pulls again.
      logger.warn('hub: the catalogue could not be fetched; the counter keeps its copy', {
        code: e instanceof HubCallError ? e.code : e instanceof Error ? e.message : 'INTERNAL',
      });
    }
  }
}
