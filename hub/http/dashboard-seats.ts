// The dashboard's seat routes (JSON; the pages are the dashboard's): the Screens page's list and a
// layout file's upload (head office; checked by the counter's own rules, kept, and pushed to the
// branch's counters with the programme) or removal, a day's occupancy per show, one show's seats
// for the read-only map, the seats sold twice, and head office's release of a show's or a counter's
// held seats (audited). A branch manager reads their own branch.
import { lagosDayOf, type ManagerView } from '../../shared/hub-dashboard-contract';
import {
  DASH_SCREEN_LAYOUT_PATH,
  DASH_SCREENS_PATH,
  DASH_SEATS_OCCUPANCY_PATH,
  DASH_SEATS_SHOW_PATH,
  DASH_SEATS_SOLD_TWICE_PATH,
  DASH_SEATS_RELEASE_PATH,
  DeleteLayoutQuerySchema,
  ReleaseSeatsRequestSchema,
  ReleaseSeatsResponseSchema,
  type ReleaseSeatsResponse,
  OccupancyQuerySchema,
  ScreensQuerySchema,
  ShowSeatsQuerySchema,
  SoldTwiceQuerySchema,
  UploadLayoutRequestSchema,
  ScreensViewSchema,
  UploadLayoutResultSchema,
  OccupancyViewSchema,
  ShowSeatsViewSchema,
  SoldTwiceViewSchema,
  type OccupancyView,
  type ScreensView,
  type ShowSeatsView,
  type SoldTwiceView,
  type UploadLayoutResult,
} from '../../shared/hub-seats-contract';
import { parseLayout } from '../../shared/seat-layout';
import { MAX_LAYOUT_CHARS } from '../../shared/seats';
import type { HubContext } from '../context';
import { fail } from '../errors';
import { writeAudit } from '../store/manager-admin';
import { deleteLayout, saveLayout, screensView } from '../store/screen-layouts';
import { releaseHolds } from '../store/seat-release';
import { occupancy, showSeats, soldTwice } from '../store/seat-views';
import { scopeOf } from '../store/scope';
import { sessionOf } from './audiences';
import type { HubApp } from './zod-provider';

/** A layout file as JSON text inside JSON: room for escaping. */
const UPLOAD_BODY_BYTES = MAX_LAYOUT_CHARS * 2 + 4_096;

/** The branch read: a branch manager's own (naming another is refused); head office names one. */
function branchOf(m: ManagerView, named: string | null | undefined): string {
  if (m.role === 'branch') {
    if (named && named !== m.branch)
      throw fail('HUB_FORBIDDEN', 403, "A branch manager sees their own branch's screens and seats only.");
    return m.branch!;
  }
  if (!named) throw fail('HUB_BAD_REQUEST', 400, 'Name the branch (branch: the merchant id its counters joined with).');
  return named;
}

function headOffice(m: ManagerView): void {
  if (m.role !== 'head-office')
    throw fail('HUB_FORBIDDEN', 403, "Only head office changes the screens' layouts: ask them to upload the file.");
}

/** Registered inside the manager audience (dashboard-routes.ts). */
export function dashboardSeatRoutes(app: HubApp, ctx: HubContext): void {
  app.get(
    DASH_SCREENS_PATH,
    { schema: { querystring: ScreensQuerySchema, response: { 200: ScreensViewSchema } } },
    async (req): Promise<ScreensView> => {
      const s = sessionOf(req);
      return screensView(ctx.db, branchOf(s.manager, req.query.branch));
    },
  );

  app.post(
    DASH_SCREEN_LAYOUT_PATH,
    {
      bodyLimit: UPLOAD_BODY_BYTES,
      schema: { body: UploadLayoutRequestSchema, response: { 200: UploadLayoutResultSchema } },
    },
    async (req): Promise<UploadLayoutResult> => {
      const s = sessionOf(req);
      headOffice(s.manager);
      const body = req.body;
      const branch = branchOf(s.manager, body.branch);
      const parsed = parseLayout(body.text, body.fileName);
      if (parsed.kind === 'refused')
        return { result: { kind: 'refused', errors: parsed.errors }, screens: await screensView(ctx.db, branch) };
      const l = parsed.layout;
      await saveLayout(ctx.db, branch, l, body.fileName, s.manager.name, ctx.now());
      const detail = `${l.screen}, ${l.capacity} seats, from ${body.fileName}`;
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.layout-uploaded',
        branch,
        detail,
        ctx.now(),
      );
      req.log.info(
        { managerId: s.manager.id, branch, screen: l.screen, capacity: l.capacity },
        'hub: screen layout uploaded',
      );
      return {
        result: { kind: 'imported', screen: l.screen, capacity: l.capacity },
        screens: await screensView(ctx.db, branch),
      };
    },
  );

  app.delete(
    DASH_SCREEN_LAYOUT_PATH,
    { schema: { querystring: DeleteLayoutQuerySchema, response: { 200: ScreensViewSchema } } },
    async (req): Promise<ScreensView> => {
      const s = sessionOf(req);
      headOffice(s.manager);
      const q = req.query;
      const branch = branchOf(s.manager, q.branch);
      if (!(await deleteLayout(ctx.db, branch, q.screen, s.manager.name, ctx.now())))
        throw fail('HUB_NOT_FOUND', 404, `The screen ${q.screen} has no layout in this branch.`);
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.layout-removed',
        branch,
        q.screen,
        ctx.now(),
      );
      return screensView(ctx.db, branch);
    },
  );

  app.get(
    DASH_SEATS_OCCUPANCY_PATH,
    { schema: { querystring: OccupancyQuerySchema, response: { 200: OccupancyViewSchema } } },
    async (req): Promise<OccupancyView> => {
      const s = sessionOf(req);
      const f = req.query;
      const day = f.day ?? lagosDayOf(ctx.now());
      return occupancy(ctx.db, scopeOf(s.manager), day, ctx.now(), f.branch, f.practice === 'true');
    },
  );

  app.get(
    DASH_SEATS_SHOW_PATH,
    { schema: { querystring: ShowSeatsQuerySchema, response: { 200: ShowSeatsViewSchema } } },
    async (req): Promise<ShowSeatsView> => {
      const s = sessionOf(req);
      const f = req.query;
      const branch = branchOf(s.manager, f.branch);
      const v = await showSeats(ctx.db, scopeOf(s.manager), branch, f.showKey, ctx.now(), f.practice === 'true');
      if (!v) throw fail('HUB_FORBIDDEN', 403, "A branch manager sees their own branch's seats only.");
      return v;
    },
  );

  app.get(
    DASH_SEATS_SOLD_TWICE_PATH,
    { schema: { querystring: SoldTwiceQuerySchema, response: { 200: SoldTwiceViewSchema } } },
    async (req): Promise<SoldTwiceView> => {
      const s = sessionOf(req);
      const f = req.query;
      return soldTwice(ctx.db, scopeOf(s.manager), f.branch);
    },
  );

  app.post(
    DASH_SEATS_RELEASE_PATH,
    { schema: { body: ReleaseSeatsRequestSchema, response: { 200: ReleaseSeatsResponseSchema } } },
    async (req): Promise<ReleaseSeatsResponse> => {
      const s = sessionOf(req);
      if (s.manager.role !== 'head-office')
        throw fail('HUB_FORBIDDEN', 403, 'Only head office releases held seats: ask them to do it.');
      const b = req.body;
      const released = await releaseHolds(ctx.db, b, ctx.now());
      const what = [b.showKey ? `show ${b.showKey}` : null, b.counterId ? `counter ${b.counterId}` : null]
        .filter(Boolean)
        .join(', ');
      await writeAudit(
        ctx.db,
        { manager: s.manager, address: req.ip },
        'programme.seats-released',
        b.branch,
        `${released} held seat${released === 1 ? '' : 's'} of ${what}`,
        ctx.now(),
      );
      req.log.info(
        { managerId: s.manager.id, branch: b.branch, showKey: b.showKey, counterId: b.counterId, released },
        'hub: held seats released by head office',
      );
      return { released };
    },
  );
}
