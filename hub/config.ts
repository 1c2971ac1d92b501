// The Hub's command line and merchant configuration: options, environment, a JSON config file.
// The merchant's private key is never asked for: the Hub cannot decrypt notifications, by design.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { publicKeyObject } from '../protocol/crypto';
import type { HubMerchantKeys } from './webhook/verify-pos';

export const HELP = `CounterPay Hub: the cinema's webhook relay and journal store.

Usage:
  npm run hub [-- options]                   start the Hub (prints its address, the webhook address
                                             to register with the provider, and an enrollment code)
  npm run hub -- enroll-code --branch ID [--ttl-minutes N]
                                             issue a one-time enrollment code for a counter of
                                             branch ID (its merchant id); without --branch the
                                             counter may name any branch
  npm run hub -- revoke-counter ID           revoke a counter: its next call is refused
  npm run hub -- prune                       delete notifications older than the retention now
  npm run hub -- create-manager NAME --role head-office|branch [--branch ID]
                                             add a dashboard manager; the password is asked for
                                             (or read from the first line of stdin when piped)

Options:
  --port N                 port to listen on (default 8790)
  --host ADDR              address to bind (default 127.0.0.1)
  --data-dir DIR           PGlite data folder when no --database-url (default .hub-data)
  --database-url URL       PostgreSQL server, e.g. postgres://hub@db.example:5432/hub (env HUB_DATABASE_URL)
  --tls-cert FILE          TLS certificate (PEM); with --tls-key the Hub serves HTTPS
  --tls-key FILE           TLS private key (PEM)
  --insecure-http          allow plain HTTP on a non-loopback address (a lab only)
  --log-level LEVEL        fatal, error, warn, info, debug, trace (default info)
  --log-file FILE          write the JSON log lines to FILE, rotated at 10 MB, 5 old files kept
                           (default: stderr)
  --merchant-config FILE   JSON {"clientAuthKey", "providerPublicKey" or "providerPublicKeyFile",
                           "signHash": "SHA256", "tranIdHeader": "X-Opay-Tranid"}
                           (env HUB_CLIENT_AUTH_KEY, HUB_PROVIDER_PUBLIC_KEY or HUB_PROVIDER_PUBLIC_KEY_FILE)
  --admin-token-file FILE  token for the admin API (env HUB_ADMIN_TOKEN); without it the admin API is off
  --retention-days N       keep notifications N days (default 90)
  --heartbeat-ms N         relay stream heartbeat interval (default 1000: a counter sees a silent
                           drop within 2 s and goes back to fast status checks)
  --ttl-minutes N          lifetime of an enrollment code (default 60)
  --counter-rate N         calls a minute one counter (or the admin token) may make (default 600,
                           with a burst of a fifth of it); past it the Hub answers 429 with the
                           wait. A sale costs a counter about 4 calls; raise it for counters that
                           sell large batches of top-ups
  --no-enroll-code         do not issue an enrollment code at start
  --no-dashboard-build     do not build the dashboard's web app at start when it is missing or
                           older than its source (npm run build:hub builds it)
  --closing-time HH:MM     the cinema's closing time (Lagos) for "shift left open" in the dashboard
                           (default 23:30; before 06:00 means after midnight)
  --trust-proxy LIST       addresses or CIDRs of your reverse proxies, comma-separated (e.g.
                           127.0.0.1 or 10.0.0.0/8): their X-Forwarded-For names the client, so
                           limits apply per real client; without it every client behind the
                           proxy shares the proxy's address
  --public-url LIST        the Hub's public address(es) as browsers open them, comma-separated
                           (e.g. https://hub.example.ng; env HUB_PUBLIC_URL): the dashboard then
                           answers only those Host names and takes writes only from those origins
  --secure-cookie          mark the dashboard's session cookie Secure although the Hub serves plain
                           HTTP (it sits behind a TLS reverse proxy); automatic with --tls-cert
  --role ROLE              create-manager: head-office (every branch) or branch
  --branch ID              create-manager: the branch (merchant id) of a branch manager;
                           enroll-code: the branch the code enrolls a counter of
  -h, --help               this text
`;

export class ConfigError extends Error {
  readonly code = 'HUB_CONFIG';
}

const MerchantFile = z
  .object({
    clientAuthKey: z.string().min(1).optional(),
    providerPublicKey: z.string().min(1).optional(),
    providerPublicKeyFile: z.string().min(1).optional(),
    signHash: z.enum(['SHA256', 'SHA1']).default('SHA256'),
    tranIdHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .default('X-Opay-Tranid'),
  })
  .strict();

interface HubCliConfig {
  command: 'serve' | 'enroll-code' | 'revoke-counter' | 'prune' | 'create-manager' | 'help';
  commandArg: string | null;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  tls: { cert: string; key: string } | null;
  logLevel: string;
  logFile: string | null;
  merchant: HubMerchantKeys | null;
  tranIdHeader: string;
  adminToken: string | null;
  retentionDays: number;
  heartbeatMs: number;
  /** Calls a minute per counter credential (the bucket's refill; its burst is a fifth). */
  counterRate: number;
  ttlMinutes: number;
  enrollCodeAtStart: boolean;
  /** Build the dashboard's web app at start when it is missing or stale. */
  dashboardBuild: boolean;
  closingTime: string;
  secureCookie: boolean;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs); empty: none. */
  trustProxy: string[];
  /** The Hub's public origins (scheme://host[:port]); empty: the request's own Host under its scheme. */
  publicUrls: string[];
  /** create-manager: the new manager's role and branch; enroll-code: the code's branch (null: any). */
  role: 'head-office' | 'branch' | null;
  branch: string | null;
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

const int = (v: string | undefined, name: string, dflt: number, min: number, max: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${v}")`);
  return n;
};

const readText = (file: string, what: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
};

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readText(file, 'merchant config'));
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`merchant config ${file} is not valid JSON: ${(e as Error).message}`);
  }
};

/** --trust-proxy: the proxies' addresses or CIDRs, comma-separated. */
function trustProxyList(raw: string): string[] {
  const trustProxy = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const t of trustProxy) {
    const [addr, bits, more] = t.split('/');
    const max = isIP(addr ?? '') === 6 ? 128 : 32;
    if (
      !isIP(addr ?? '') ||
      more !== undefined ||
      (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))
    ) {
      throw new ConfigError(`--trust-proxy takes addresses or CIDRs of your proxies, comma-separated (got "${t}")`);
    }
  }
  return trustProxy;
}

/** --public-url (or HUB_PUBLIC_URL): the Hub's addresses as origins, comma-separated. */
function publicUrlList(raw: string): string[] {
  return raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      let u: URL | null = null;
      try {
        u = new URL(x);
      } catch {
        u = null;
      }
      if (!u || !['http:', 'https:'].includes(u.protocol) || u.pathname !== '/' || u.search || u.hash || u.username) {
        throw new ConfigError(
          `--public-url takes the Hub's addresses as scheme://host[:port], comma-separated (got "${x}")`,
        );
      }
      return u.origin;
    });
}

export function parseHubArgs(argv: string[], env: NodeJS.ProcessEnv): HubCliConfig {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'insecure-http': { type: 'boolean' },
        'log-level': { type: 'string' },
        'log-file': { type: 'string' },
        'merchant-config': { type: 'string' },
        'admin-token-file': { type: 'string' },
        'retention-days': { type: 'string' },
        'heartbeat-ms': { type: 'string' },
        'counter-rate': { type: 'string' },
        'ttl-minutes': { type: 'string' },
        'no-enroll-code': { type: 'boolean' },
        'no-dashboard-build': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        'closing-time': { type: 'string' },
        'secure-cookie': { type: 'boolean' },
        'trust-proxy': { type: 'string' },
        'public-url': { type: 'string' },
        role: { type: 'string' },
        branch: { type: 'string' },
      },
    });
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}. See npm run hub -- --help`);
  }
  const v = parsed.values;
  const [cmd, arg] = parsed.positionals;
  const commands = ['serve', 'enroll-code', 'revoke-counter', 'prune', 'create-manager'] as const;
  if (cmd !== undefined && !(commands as readonly string[]).includes(cmd))
    throw new ConfigError(`unknown command "${cmd}"; see npm run hub -- --help`);
  const command = v.help ? 'help' : ((cmd ?? 'serve') as HubCliConfig['command']);
  if (command === 'revoke-counter' && !arg)
    throw new ConfigError('revoke-counter needs the counter id, e.g. npm run hub -- revoke-counter ctr_0a1b2c3d4e5f');
  let role: HubCliConfig['role'] = null;
  if (command === 'create-manager') {
    if (!arg)
      throw new ConfigError(
        'create-manager needs a name, e.g. npm run hub -- create-manager "Ada Obi" --role head-office',
      );
    if (v.role !== 'head-office' && v.role !== 'branch')
      throw new ConfigError('create-manager needs --role head-office (every branch) or --role branch --branch ID');
    role = v.role;
    if (role === 'branch' && !v.branch?.trim())
      throw new ConfigError(
        "a branch manager needs --branch ID (the branch's merchant id, as its counters were enrolled)",
      );
    if (role === 'head-office' && v.branch) throw new ConfigError('head office sees every branch: leave out --branch');
  }
  const closingTime = v['closing-time'] ?? '23:30';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(closingTime))
    throw new ConfigError(`--closing-time must be HH:MM, 24-hour (got "${closingTime}")`);

  const host = v.host ?? '127.0.0.1';
  if ((v['tls-cert'] === undefined) !== (v['tls-key'] === undefined))
    throw new ConfigError('give both --tls-cert and --tls-key, or neither');
  const tls =
    v['tls-cert'] && v['tls-key']
      ? { cert: readText(v['tls-cert'], 'TLS certificate'), key: readText(v['tls-key'], 'TLS key') }
      : null;
  if (command === 'serve' && !tls && !isLoopback(host) && !v['insecure-http']) {
    throw new ConfigError(
      `refusing plain HTTP on ${host}: counters' credentials would cross the network in clear. Give --tls-cert/--tls-key, bind 127.0.0.1 behind a TLS reverse proxy, or add --insecure-http for a lab`,
    );
  }
  const trustProxy = trustProxyList(v['trust-proxy'] ?? '');
  const publicUrls = publicUrlList(v['public-url'] ?? env.HUB_PUBLIC_URL ?? '');
  const logLevel = v['log-level'] ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
    throw new ConfigError(`--log-level ${logLevel} is not a level`);

  const file = MerchantFile.safeParse(v['merchant-config'] ? readJson(v['merchant-config']) : {});
  if (!file.success)
    throw new ConfigError(
      `merchant config: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const m = file.data;
  const clientAuthKey = m.clientAuthKey ?? env.HUB_CLIENT_AUTH_KEY ?? '';
  // A file named in the merchant file is read relative to that file's own folder.
  const keyFile =
    m.providerPublicKeyFile !== undefined
      ? resolve(dirname(resolve(v['merchant-config']!)), m.providerPublicKeyFile)
      : env.HUB_PROVIDER_PUBLIC_KEY_FILE;
  const pubText =
    m.providerPublicKey ?? env.HUB_PROVIDER_PUBLIC_KEY ?? (keyFile ? readText(keyFile, 'provider public key') : '');
  let merchant: HubMerchantKeys | null = null;
  if (clientAuthKey && pubText) {
    try {
      merchant = {
        clientAuthKey: clientAuthKey.trim(),
        providerPublicKey: publicKeyObject(pubText.trim()),
        signHash: m.signHash,
      };
    } catch {
      throw new ConfigError('the provider public key is not a valid PEM or base64 RSA public key');
    }
  } else if (clientAuthKey || pubText) {
    throw new ConfigError(
      'give both the POS clientAuthKey and the provider public key (or neither, to start without the webhook relay)',
    );
  }
  const adminToken = v['admin-token-file']
    ? readText(v['admin-token-file'], 'admin token').trim()
    : env.HUB_ADMIN_TOKEN?.trim() || null;
  if (adminToken !== null && adminToken.length < 24)
    throw new ConfigError('the admin token must be at least 24 characters');
  // It travels in a Bearer header, read as letters, digits, - and _: a token with + / = could never match.
  if (adminToken !== null && !/^[A-Za-z0-9_-]{24,200}$/.test(adminToken)) {
    throw new ConfigError(
      "the admin token may hold only letters, digits, - and _ (24 to 200 of them), e.g. openssl rand -base64 32 | tr '+/' '-_' | tr -d =",
    );
  }

  return {
    command,
    commandArg: arg ?? null,
    host,
    tls,
    logLevel,
    logFile: v['log-file'] ?? null,
    merchant,
    tranIdHeader: m.tranIdHeader,
    adminToken,
    port: int(v.port, '--port', 8790, 0, 65535),
    dataDir: v['data-dir'] ?? '.hub-data',
    databaseUrl: v['database-url'] ?? env.HUB_DATABASE_URL ?? null,
    retentionDays: int(v['retention-days'], '--retention-days', 90, 1, 3650),
    heartbeatMs: int(v['heartbeat-ms'], '--heartbeat-ms', 1000, 50, 60_000),
    counterRate: int(v['counter-rate'], '--counter-rate', 600, 10, 1_000_000),
    ttlMinutes: int(v['ttl-minutes'], '--ttl-minutes', 60, 1, 7 * 24 * 60),
    enrollCodeAtStart: !v['no-enroll-code'],
    dashboardBuild: !v['no-dashboard-build'],
    closingTime,
    secureCookie: Boolean(v['secure-cookie']),
    trustProxy,
    publicUrls,
    role,
    branch: role === 'branch' || command === 'enroll-code' ? v.branch?.trim() || null : null,
  };
}
