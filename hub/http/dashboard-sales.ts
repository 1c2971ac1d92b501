// The dashboard's concessions routes: a branch's catalogue read and uploaded (CSV or JSON, checked by
// the counter's own parsers, errors by line and column, nothing kept unless all is right) with its
// stock across counters, and the export of items sold per branch and day. A branch manager works on
// their own branch; head office names the branch. Registered inside the manager audience.
import { checkCatalogueCsv } from '../../shared/catalogue-csv';
import { checkCatalogueJson } from '../../shared/catalogue-json';
import { csvLine } from '../../shared/csv-cell';
import { lagosDayStart, type ManagerView } from '../../shared/hub-dashboard-contract';
import {
  DASH_CATALOGUE_PATH,
  DashCatalogueQuerySchema,
  DashCatalogueViewSchema,
  ImportCatalogueRequestSchema,
  ImportCatalogueResultSchema,
  ItemsCsvQuerySchema,
  ITEMS_CSV_COLUMNS,
} from '../../shared/hub-sales-contract';
import { koboToNairaString } from '../../shared/money';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { catalogueView, setCatalogue } from '../store/catalogue';
import { itemsSold } from '../store/dashboard-sales';
import { DAY_MS } from '../store/dashboard-orders';
import { writeAudit } from '../store/manager-admin';
import { scopeOf } from '../store/scope';
import { sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

/** At most this many errors travel back with a refused file (errorCount says how many in all). */
const MAX_ERRORS_SHOWN = 200;
const IMPORT_BODY_BYTES = 2 * 1024 * 1024;

/** The branch a manager works on: their own (naming another is refused), or the one head office names. */
function branchOf(m: ManagerView, named: string | null | undefined): string {
  if (m.role === 'branch') {
    if (named && named !== m.branch)
      throw fail('HUB_FORBIDDEN', 403, 'A branch manager sets the catalogue of their own branch only.');
    return m.branch!;
  }
  if (!named)
    throw fail(
      'HUB_BAD_REQUEST',
      400,
      'Name the branch whose catalogue this is (branch: the merchant id its counters joined with).',
    );
  return named;
}

export function dashboardSalesRoutes(app: HubApp, ctx: HubContext): void {
  app.get(
    DASH_CATALOGUE_PATH,
    { schema: { querystring: DashCatalogueQuerySchema, response: { 200: DashCatalogueViewSchema } } },
    async (req) => catalogueView(ctx.db, branchOf(sessionOf(req).manager, req.query.branch)),
  );

  app.post(
    `${DASH_CATALOGUE_PATH}/import`,
    {
      bodyLimit: IMPORT_BODY_BYTES,
      schema: { body: ImportCatalogueRequestSchema, response: { 200: ImportCatalogueResultSchema } },
    },
    async (req) => {
      const s = sessionOf(req);
      const body = req.body;
      const branch = branchOf(s.manager, body.branch);
      const check = body.format === 'json' ? checkCatalogueJson(body.text) : checkCatalogueCsv(body.text);
      if (!check.catalogue)
        return {
          imported: false,
          totalRows: check.totalRows,
          errors: check.errors.slice(0, MAX_ERRORS_SHOWN),
          errorCount: check.errors.length,
          catalogue: await catalogueView(ctx.db, branch),
        };
      const c = check.catalogue;
      const version = await setCatalogue(ctx.db, branch, c, s.manager.name, ctx.now());
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.catalogue-imported',
        branch,
        `version ${version}, ${c.items.length} items and ${c.combos.length} combos from ${body.fileName}`,
        ctx.now(),
      );
      req.log.info({ managerId: s.manager.id, branch, version, file: body.fileName }, 'hub: catalogue imported');
      return {
        imported: true,
        totalRows: check.totalRows,
        errors: [],
        errorCount: 0,
        catalogue: await catalogueView(ctx.db, branch),
      };
    },
  );

  app.get('/api/v1/dashboard/items.csv', { schema: { querystring: ItemsCsvQuerySchema } }, async (req, reply) => {
    const s = sessionOf(req);
    const f = req.query;
    if (f.to < f.from)
      throw fail('HUB_BAD_REQUEST', 400, 'The export ends before it starts: to must be on or after from.');
    const rows = await itemsSold(
      ctx.db,
      scopeOf(s.manager),
      lagosDayStart(f.from),
      lagosDayStart(f.to) + DAY_MS,
      f.branch,
    );
    const lines = [ITEMS_CSV_COLUMNS.join(',')];
    for (const r of rows)
      lines.push(
        csvLine([
          r.day,
          r.branch,
          r.kind,
          r.code,
          r.name,
          r.category,
          String(r.quantity),
          koboToNairaString(r.amountKobo),
          koboToNairaString(r.bookingFeeKobo),
        ]),
      );
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="items-${f.from}-to-${f.to}.csv"`)
      .send(lines.join('\r\n') + '\r\n');
  });
}
