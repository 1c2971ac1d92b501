// counterpay://charge?… links (docs/integration.md): the app registers itself as their handler
// and hands each one to the core, which checks its signature and charges it (the payment panel
// opens by itself). macOS delivers a link as `open-url`; Windows and Linux start a second
// instance with the link in its arguments, which the single-instance lock turns into
// `second-instance` here. Links that arrive before the core is ready wait for it.
import { app } from 'electron';
import { CHARGE_LINK_PREFIX } from '../../shared/integration';
import type { Logger } from '../../shared/logger';

type Open = (url: string) => Promise<{ ok: boolean; error?: { code: string; message: string } }>;

const linkIn = (argv: readonly string[]) => argv.find((a) => a.startsWith(`${CHARGE_LINK_PREFIX}?`));

export function listenForChargeLinks(onWindow: () => void): { ready(open: Open, logger: Logger): void } {
  const waiting: string[] = [];
  let open: Open | null = null;
  let log: Logger | null = null;
  const take = (url: string) => {
    onWindow();
    if (!open) return void waiting.push(url);
    void open(url).then((r) => {
      // The link itself is not logged: it carries a booking and a signature.
      if (r.ok) log?.info('charge link opened');
      else log?.warn('charge link refused', { code: r.error?.code, why: r.error?.message });
    });
  };
  if (!app.isDefaultProtocolClient('counterpay')) app.setAsDefaultProtocolClient('counterpay');
  app.on('open-url', (e, url) => {
    e.preventDefault();
    if (url.startsWith(`${CHARGE_LINK_PREFIX}?`)) take(url);
  });
  app.on('second-instance', (_e, argv) => {
    const url = linkIn(argv);
    if (url) take(url);
    else onWindow();
  });
  const first = linkIn(process.argv);
  if (first) waiting.push(first);
  return {
    ready(o, logger) {
      open = o;
      log = logger;
      for (const url of waiting.splice(0)) take(url);
    },
  };
}
