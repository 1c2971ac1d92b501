// The dashboard's programme and per-show routes: a branch's programme read, set as JSON, or
// imported from a file with the counter's columns and checks (errors by line and column, nothing
// kept unless every row is right), the template, and a day's shows with their fill. A branch
// manager works on their own branch; head office names the branch.
import { lagosDayOf, type ManagerView } from '../../shared/hub-dashboard-contract';
import {
  DASH_PROGRAMME_PATH,
  DASH_SHOWS_PATH,
  DashProgrammeQuerySchema,
  ImportProgrammeRequestSchema,
  PutProgrammeRequestSchema,
  ShowsQuerySchema,
  DashProgrammeViewSchema,
  ImportProgrammeResultSchema,
  ShowsViewSchema,
  type DashProgrammeView,
} from '../../shared/hub-programme-contract';
import { checkProgrammeFile, programmeTemplate } from '../../shared/programme-csv';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { writeAudit } from '../store/manager-admin';
import { programmeView, readProgramme, setProgramme, showFills } from '../store/programme';
import { scopeOf } from '../store/scope';
import { sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

/** At most this many errors travel back with a refused file (errorCount says how many in all). */
const MAX_ERRORS_SHOWN = 200;
/** A programme file is far larger than the dashboard's other requests. */
const IMPORT_BODY_BYTES = 2 * 1024 * 1024;

/** The branch a manager works on: their own (naming another is refused), or the one head office names. */
function branchOf(m: ManagerView, named: string | null | undefined): string {
  if (m.role === 'branch') {
    if (named && named !== m.branch)
      throw fail('HUB_FORBIDDEN', 403, 'A branch manager sets the programme of their own branch only.');
    return m.branch!;
  }
  if (!named)
    throw fail(
      'HUB_BAD_REQUEST',
      400,
      'Name the branch whose programme this is (branch: the merchant id its counters joined with).',
    );
  return named;
}

/** Registered inside the manager audience (dashboard-routes.ts). */
export function dashboardProgrammeRoutes(app: HubApp, ctx: HubContext): void {
  const view = async (branch: string): Promise<DashProgrammeView> => programmeView(await readProgramme(ctx.db, branch));

  app.get(
    DASH_PROGRAMME_PATH,
    { schema: { querystring: DashProgrammeQuerySchema, response: { 200: DashProgrammeViewSchema } } },
    async (req) => {
      const s = sessionOf(req);
      const f = req.query;
      return view(branchOf(s.manager, f.branch));
    },
  );

  app.put(
    DASH_PROGRAMME_PATH,
    {
      bodyLimit: IMPORT_BODY_BYTES,
      schema: { body: PutProgrammeRequestSchema, response: { 200: DashProgrammeViewSchema } },
    },
    async (req) => {
      const s = sessionOf(req);
      const body = req.body;
      const branch = branchOf(s.manager, body.branch);
      const version = await setProgramme(ctx.db, branch, body.programme, s.manager.name, ctx.now());
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.imported',
        branch,
        `version ${version}, ${body.programme.shows.length} shows`,
        ctx.now(),
      );
      req.log.info(
        { managerId: s.manager.id, branch, version, shows: body.programme.shows.length },
        'hub: programme set',
      );
      return view(branch);
    },
  );

  app.post(
    `${DASH_PROGRAMME_PATH}/import`,
    {
      bodyLimit: IMPORT_BODY_BYTES,
      schema: { body: ImportProgrammeRequestSchema, response: { 200: ImportProgrammeResultSchema } },
    },
    async (req) => {
      const s = sessionOf(req);
      const body = req.body;
      const branch = branchOf(s.manager, body.branch);
      const check = checkProgrammeFile(body.csv);
      if (!check.programme) {
        return {
          imported: false,
          totalRows: check.totalRows,
          errors: check.errors.slice(0, MAX_ERRORS_SHOWN),
          errorCount: check.errors.length,
          programme: await view(branch),
        };
      }
      const version = await setProgramme(ctx.db, branch, check.programme, s.manager.name, ctx.now());
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.imported',
        branch,
        `version ${version}, ${check.totalRows} row${check.totalRows === 1 ? '' : 's'}${body.fileName ? ` from ${body.fileName}` : ''}`,
        ctx.now(),
      );
      req.log.info(
        { managerId: s.manager.id, branch, version, rows: check.totalRows, file: body.fileName },
        'hub: programme imported',
      );
      return { imported: true, totalRows: check.totalRows, errors: [], errorCount: 0, programme: await view(branch) };
    },
  );

  app.get(`${DASH_PROGRAMME_PATH}/template.csv`, async (_req, reply) => {
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="programme-template.csv"')
      .send(programmeTemplate(lagosDayOf(ctx.now())));
  });

  app.get(
    DASH_SHOWS_PATH,
    { schema: { querystring: ShowsQuerySchema, response: { 200: ShowsViewSchema } } },
    async (req) => {
      const s = sessionOf(req);
      const f = req.query;
      return showFills(ctx.db, scopeOf(s.manager), f.day ?? lagosDayOf(ctx.now()), f.branch);
    },
  );
}
