// `npm run hub`: starts a Hub, or runs one administrative command against its database.
import { createInterface } from 'node:readline';
import pino from 'pino';
import { CreateManagerRequestSchema } from '../shared/hub-dashboard-contract';
import { formatLagosDateTime } from '../shared/time';
import { ConfigError, HELP, parseHubArgs } from './config';
import { ensureDashboardBuilt } from './dashboard-build';
import { FolderLockedError } from './db/folder-lock';
import { openHubDb } from './db/open';
import { rotatingFile } from './log-file';
import { DEFAULT_DASHBOARD_DIR, startHub } from './server';
import { issueEnrollCode, revokeCounter } from './store/counters';
import { createManager, issueSetupToken } from './store/managers';
import { pruneOlderThan } from './store/notifications';
import { pruneSeatHolds, SEAT_HISTORY_DAYS } from './store/seat-release';

/** An expiry as the people enrolling a counter in Nigeria read it: Lagos time, not UTC ("27 Nov 2026, 12:44:30 Lagos time"). */
function lagosUntil(ms: number): string {
  return `${formatLagosDateTime(ms)} Lagos time`;
}

/** The password from a terminal (not echoed) or from the first line of piped stdin. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const ask = (q: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(q);
      const w = rl as unknown as { _writeToOutput: (s: string) => void };
      w._writeToOutput = () => undefined;
      rl.question('', (a) => {
        process.stdout.write('\n');
        resolve(a);
      });
    });
  try {
    const a = await ask('Password (at least 10 characters): ');
    const b = await ask('Same password again: ');
    if (a !== b) throw new ConfigError('the two passwords differ; nothing was created');
    return a;
  } finally {
    rl.close();
  }
}

async function main(): Promise<number> {
  const cfg = parseHubArgs(process.argv.slice(2), process.env);
  if (cfg.command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  // Logs are JSON lines on stderr or in a rotating file; stdout carries only the lines a person or
  // a script reads. Request headers (credentials) are never logged; redact is a second defence.
  const dest = cfg.logFile ? rotatingFile(cfg.logFile, 10 * 1024 * 1024, 5) : pino.destination(2);
  const logger = pino(
    { level: cfg.logLevel, redact: ['req.headers.authorization', '*.credential', '*.clientAuthKey'] },
    dest,
  );
  const db = await openHubDb({
    databaseUrl: cfg.databaseUrl,
    dataDir: cfg.dataDir,
    onError: (e) => logger.error({ err: e.message }, 'hub: database connection error'),
  });
  const now = Date.now();

  if (cfg.command === 'enroll-code') {
    const c = await issueEnrollCode(db, now, cfg.ttlMinutes, cfg.branch);
    const forWhom = c.branch
      ? `for a counter of branch ${c.branch} only`
      : 'for any branch: the counter names its own; give --branch ID to bind it';
    process.stdout.write(`enrollment code: ${c.code} (one use, ${forWhom}, valid until ${lagosUntil(c.expiresAt)})\n`);
    await db.close();
    return 0;
  }
  if (cfg.command === 'revoke-counter') {
    const ok = await revokeCounter(db, cfg.commandArg!, now);
    process.stdout.write(
      ok ? `counter ${cfg.commandArg} revoked: its next call is refused\n` : `no counter ${cfg.commandArg}\n`,
    );
    await db.close();
    return ok ? 0 : 1;
  }
  if (cfg.command === 'create-manager') {
    const password = await readPassword();
    const parsed = CreateManagerRequestSchema.safeParse({
      name: cfg.commandArg,
      password,
      role: cfg.role,
      branch: cfg.branch,
    });
    if (!parsed.success) {
      await db.close();
      throw new ConfigError(
        `manager not created: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
      );
    }
    try {
      const m = await createManager(db, parsed.data, now);
      process.stdout.write(
        `manager "${m.name}" created (${m.role === 'branch' ? `branch ${m.branch}` : 'head office, every branch'}); log in at the Hub's /dashboard/\n`,
      );
    } finally {
      await db.close();
    }
    return 0;
  }
  if (cfg.command === 'prune') {
    const n = await pruneOlderThan(db, now - cfg.retentionDays * 86_400_000);
    process.stdout.write(`pruned ${n} notifications older than ${cfg.retentionDays} days\n`);
    const seats = await pruneSeatHolds(db, now);
    process.stdout.write(`pruned ${seats} seat holds (ended a day ago, or of shows past ${SEAT_HISTORY_DAYS} days)\n`);
    await db.close();
    return 0;
  }

  let dashboardNote: string | null = null;
  if (cfg.dashboardBuild) {
    try {
      const b = await ensureDashboardBuilt(DEFAULT_DASHBOARD_DIR, (l) => process.stdout.write(l + '\n'));
      if (b === 'busy')
        dashboardNote =
          'the dashboard web app is being built by another Hub process; its pages say so until it is done';
      if (b === 'unavailable')
        dashboardNote = 'the dashboard web app is not built and cannot be built here: run npm run build:hub';
    } catch (e) {
      logger.error({ err: (e as Error).message }, 'hub: building the dashboard web app failed');
      dashboardNote = 'building the dashboard web app failed (see the log): run npm run build:hub to see why';
    }
  }
  const hub = await startHub({
    db,
    host: cfg.host,
    port: cfg.port,
    tls: cfg.tls,
    merchant: cfg.merchant,
    tranIdHeader: cfg.tranIdHeader,
    adminToken: cfg.adminToken,
    heartbeatMs: cfg.heartbeatMs,
    rateLimits: { perCredential: cfg.counterRate },
    retentionDays: cfg.retentionDays,
    logger,
    defaultMetrics: true,
    trustProxy: cfg.trustProxy,
    publicUrls: cfg.publicUrls,
    dashboard: { attention: { closingTime: cfg.closingTime }, secureCookie: Boolean(cfg.tls) || cfg.secureCookie },
  });
  const lines = [
    `CounterPay Hub listening on ${hub.url} (database: ${db.label})`,
    `provider POS webhook address to register: ${hub.webhookUrls.pos}`,
    `provider bills callback address:          ${hub.webhookUrls.bills}`,
  ];
  if (!cfg.merchant)
    lines.push('webhook relay is OFF: no clientAuthKey / provider public key configured (see --merchant-config)');
  lines.push(`manager's dashboard: ${hub.url}/dashboard/`);
  if (dashboardNote) lines.push(dashboardNote);
  if (!cfg.adminToken) lines.push('admin API is OFF: set HUB_ADMIN_TOKEN or --admin-token-file to use it');
  if (cfg.enrollCodeAtStart) {
    const c = await issueEnrollCode(db, Date.now(), cfg.ttlMinutes);
    lines.push(`enrollment code: ${c.code} (one use, valid until ${lagosUntil(c.expiresAt)})`);
  }
  // First start: no manager yet. The token is in the link's #fragment, which browsers never send
  // to a server, so it stays out of access logs; only its hash is stored.
  const setup = await issueSetupToken(db, Date.now(), 60);
  if (setup) {
    lines.push(
      `first start: create the head-office manager within 60 minutes at ${hub.url}/dashboard/#setup=${setup.token}`,
    );
    lines.push(
      `  (or POST ${hub.url}/api/v1/dashboard/setup {"token": "${setup.token}", "name": ..., "password": ...}, or npm run hub -- create-manager NAME --role head-office)`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');

  const stop = async () => {
    await hub.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e) => {
    process.stderr.write(
      `hub: ${e instanceof ConfigError || e instanceof FolderLockedError ? e.message : ((e as Error).stack ?? String(e))}\n`,
    );
    process.exit(2);
  },
);
