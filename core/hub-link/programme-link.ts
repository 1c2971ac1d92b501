// The branch's programme from the Hub: told on the relay stream (on connect and on every change),
// fetched when newer than the counter's copy, and handed to the programme module's one way in.
import { HubProgrammeSchema } from '../../shared/hub-programme-contract';
import type { Programme } from '../../shared/programme';
import type { Logger } from '../../shared/logger';
import { HubCallError, type HubClient } from './link-client';
import type { HubConnectionSource } from './link-types';

/** Bounds the programme request (as the check does). */
const PROGRAMME_TIMEOUT_MS = 8_000;

/** The counter's programme: the Hub version of its copy (null: none from the Hub), and the one way in. */
export interface ProgrammePort {
  /** The Hub version of the copy, when it came with this enrollment (`counterId`). */
  heldVersion(counterId: string): number | null;
  replace(version: number, programme: Programme, counterId: string): void;
}

interface ProgrammeLinkDeps {
  programme: ProgrammePort;
  connection: HubConnectionSource;
  client: HubClient;
  logger: Logger;
  /** The links run: a fetch stops when they stop. */
  running(): boolean;
}

export class ProgrammeLink {
  /** The newest version the Hub told. */
  private wanted = 0;
  /** The fetch under way (a version told meanwhile is fetched by it, next). */
  private fetching: Promise<void> | null = null;

  constructor(private readonly deps: ProgrammeLinkDeps) {}

  /** The Hub told the programme's version. */
  told(version: number): void {
    this.wanted = Math.max(this.wanted, version);
    if (!this.fetching) this.fetching = this.fetch().finally(() => (this.fetching = null));
  }

  private async fetch(): Promise<void> {
    const { programme: p, connection, client, logger } = this.deps;
    // Until the copy is at the version told (a change told while fetching is fetched next).
    for (let tries = 0; tries < 5; tries++) {
      const c = connection();
      if (!c || !this.deps.running()) return;
      const held = p.heldVersion(c.counterId);
      if (held !== null && held >= this.wanted) return;
      try {
        const got = await client.call(c, 'GET', '/programme', undefined, HubProgrammeSchema, {
          timeoutMs: PROGRAMME_TIMEOUT_MS,
        });
        if (got.programme === null || got.version === 0) return;
        if (held === null || got.version > held) {
          p.replace(got.version, got.programme, c.counterId);
          logger.info('hub: programme received', { version: got.version, shows: got.programme.shows.length });
        }
        if (got.version >= this.wanted) return;
      } catch (e) {
        // The next connect tells the version again, so a failed fetch is retried then.
        logger.warn('hub: the programme could not be fetched; the counter keeps its copy', {
          code: e instanceof HubCallError ? e.code : e instanceof Error ? e.message : 'INTERNAL',
        });
        return;
      }
    }
  }
}
