// Routes declare their answers' schemas as well as their requests' (hub/http/zod-provider.ts). An
// answer is checked against its schema on the way out and carries only what the schema declares; an
// answer that does not match is the Hub's fault: the client gets the Hub's usual HUB_INTERNAL (500),
// and the log names the route and the wrong field, never a value. A refused request keeps the Hub's
// error answer. Every JSON route of the API declares its answer's schema. A real Hub (PGlite in
// memory) over loopback HTTP, its log read line by line.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openHubDb } from '../../../hub/db/open';
import { buildHub, type BuiltHub } from '../../../hub/server';
import { HUB_API_PREFIX, IssueCodeResponseSchema } from '../../../shared/hub-contract';

const SECRET = 'cred_Zk3S3cretValue0123456789abcdefghijklmnopq';
const WRONG = 'half-past-never';
const Probe = z.object({ id: z.string().regex(/^\d+$/) });

describe('answers checked against their response schemas', () => {
  let hub: BuiltHub;
  let url: string;
  const lines: string[] = [];
  const routes: { route: string; answers: boolean }[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    hub = await buildHub({
      db: await openHubDb({ dataDir: null }),
      merchant: null,
      logger: pino({ level: 'trace' }, sink),
    });
    // The API's routes are registered inside their audiences' scopes, which run at start: seen here.
    hub.app.addHook('onRoute', (r) => {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      const response = (r.schema as { response?: Record<string, unknown> } | undefined)?.response;
      for (const m of methods)
        if (m !== 'HEAD') routes.push({ route: `${m} ${r.url}`, answers: Boolean(response?.[200]) });
    });
    type Answer = z.input<typeof IssueCodeResponseSchema>;
    // A route whose answer breaks its schema: a credential in a declared field, a text where a time goes.
    hub.app.get('/test/broken-answer', { schema: { response: { 200: IssueCodeResponseSchema } } }, async () => {
      return { code: SECRET, expiresAt: WRONG, branch: null } as unknown as Answer;
    });
    // A route that returns more than its schema declares.
    hub.app.get('/test/extra-field', { schema: { response: { 200: IssueCodeResponseSchema } } }, async () => {
      return { code: 'ABCD-1234', expiresAt: 1_700_000_000_000, branch: 'B1', tokenHash: SECRET } as Answer;
    });
    hub.app.get('/test/probe/:id', { schema: { params: Probe, response: { 200: Probe } } }, async (req) => {
      return { id: req.params.id };
    });
    await hub.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = hub.app.server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => hub?.close());

  it('an answer that breaks its schema is a 500 HUB_INTERNAL, logged with the route and the field, not the values', async () => {
    const res = await fetch(`${url}/test/broken-answer`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: 'HUB_INTERNAL',
      message: 'The Hub failed to handle this request; it is logged. Try again.',
    });
    const logged = lines.filter((l) => l.includes('does not match its response schema'));
    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]!) as { level: number; msg: string; err: { message: string } };
    expect(entry.level).toBe(50); // error
    expect(entry.err.message).toContain('GET /test/broken-answer (200)');
    expect(entry.err.message).toContain('expiresAt:');
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(WRONG);
  });

  it('an answer carries only what its schema declares', async () => {
    const res = await fetch(`${url}/test/extra-field`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ code: 'ABCD-1234', expiresAt: 1_700_000_000_000, branch: 'B1' });
    expect(text).not.toContain(SECRET);
  });

  it('a request its schema refuses keeps the Hub error answer; one it takes is answered through the schema', async () => {
    const bad = await fetch(`${url}/test/probe/abc`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: 'HUB_BAD_REQUEST',
      message: 'Some fields are wrong: id: Invalid string: must match pattern /^\\d+$/',
      details: { issues: [{ path: 'id', message: 'Invalid string: must match pattern /^\\d+$/' }] },
    });
    const good = await fetch(`${url}/test/probe/42`);
    expect(await good.json()).toEqual({ id: '42' });
  });

  it('every route of the API that answers JSON declares the schema of its answer', () => {
    const api = routes.filter((r) => r.route.includes(`${HUB_API_PREFIX}/`));
    expect(api.length).toBeGreaterThan(40);
    // Streams (server-sent events) and CSV files are not JSON answers.
    const notJson = /\/relay\/stream$|\/dashboard\/live$|\.csv$/;
    expect(api.filter((r) => !r.answers && !notJson.test(r.route)).map((r) => r.route)).toEqual([]);
  });

  it("a real route's answer is its schema's: GET /me of a counter without a credential is still the Hub's 401", async () => {
    const res = await fetch(`${url}${HUB_API_PREFIX}/me`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('HUB_UNAUTHENTICATED');
  });
});
