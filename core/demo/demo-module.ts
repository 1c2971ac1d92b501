// The Demo profile's embedded provider: started when the Demo profile is in use, it fills the
// profile's addresses and keys, and its simulated terminal is shown and driven from the screen.
import type { demoCalls } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import { startDemoSandbox, type DemoSandbox } from './demo-sandbox';
import { demoScreen } from './demo-screen';
import type { TerminalLink } from '../terminal';

/** What the Demo module takes of the core: the terminal link, pointed at the sandbox's terminal. */
type DemoContext = Pick<CoreServices, 'dataDir' | 'settings' | 'events' | 'logger'> & { terminal: TerminalLink };

interface DemoModuleDeps {
  /** Off in tests that bring their own sandbox. */
  embedded: boolean;
}

export function createDemoModule(ctx: DemoContext, deps: DemoModuleDeps) {
  const { settings, events, logger, terminal } = ctx;
  let demo: DemoSandbox | null = null;
  let starting: Promise<void> | null = null;
  const sn = () => terminal.getState().sn;
  const push = () => events.emit('demo.terminalChanged', demoScreen(demo, sn()));
  const requireDemo = () => {
    if (!demo || settings.activeProfile() !== 'demo')
      throw new AppError('NOT_READY', 'The Demo terminal works only in the Demo profile.');
    return demo;
  };

  const module: CoreModule<typeof demoCalls> = {
    handlers: {
      'demo.terminalScreen': () => demoScreen(settings.activeProfile() === 'demo' ? demo : null, sn()),
      'demo.present': (a) => {
        const d = requireDemo();
        const at = sn();
        const screen = demoScreen(d, at);
        if (!screen.available || !at) throw new AppError('NOT_READY', screen.message);
        if (!screen.pending) throw new AppError('CONFLICT', 'No payment is waiting on the Demo terminal.');
        d.sandbox.present(at, a.outcome);
        return demoScreen(d, at);
      },
    },
    async stop() {
      if (demo) await demo.sandbox.close();
    },
  };

  return {
    ...module,
    /** The terminal link changed: the Demo panel shows it (the root calls this after the terminal module heard it). */
    terminalChanged(): void {
      if (demo) push();
    },
    /** The running sandbox, or null (not started, failed, or not embedded). */
    current: (): DemoSandbox | null => demo,
    /** Starts the sandbox once and writes its addresses and keys into the Demo profile; a failure is logged and retried next time. */
    ensure(): Promise<void> {
      if (!deps.embedded || demo) return Promise.resolve();
      starting ??= startDemoSandbox(ctx.dataDir, logger)
        .then((d) => {
          demo = d;
          const m = d.merchant;
          settings.writeInternal(
            'demo',
            {
              billsBaseUrl: d.sandbox.billsBaseUrl,
              posBaseUrl: d.sandbox.posBaseUrl,
              billsMerchantId: m.billsMerchantId,
              headMerchantId: m.headMerchantId,
              merchantId: m.merchantId,
            },
            {
              billsPublicKey: m.billsPublicKey,
              billsSecretKey: m.billsSecretKey,
              posClientAuthKey: m.clientAuthKey,
              merchantPrivateKey: m.merchantPrivateKeyPem,
              providerPublicKey: m.providerPublicKeyPem,
            },
          );
          d.sandbox.events.on('pos-order-created', push);
          d.sandbox.events.on('pos-order-settled', push);
        })
        .catch((e) => {
          starting = null;
          logger.error('demo sandbox could not start', { error: e instanceof Error ? e.message : String(e) });
        });
      return starting;
    },
  };
}
