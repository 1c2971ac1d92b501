// The Demo terminal panel's view of the embedded sandbox's terminal.
import type { DemoTerminalScreen as DemoScreen } from '../../shared/contract';
import { nairaStringToKobo } from '../../shared/money';
import type { DemoSandbox } from './demo-sandbox';

export function demoScreen(demo: DemoSandbox | null, sn: string | null): DemoScreen {
  if (!demo)
    return { available: false, sn: null, pending: null, message: 'The Demo terminal runs only in the Demo profile.' };
  const known = demo.sandbox.config.pos.terminals.some((t) => t.sn === sn);
  if (!sn || !known) {
    return {
      available: false,
      sn,
      pending: null,
      message: `Choose the Demo terminal ${demo.merchant.terminalSn} as this counter's terminal to use it.`,
    };
  }
  const screen = demo.sandbox.terminalScreen(sn);
  if (screen.state === 'idle') return { available: true, sn, pending: null, message: 'Ready. Waiting for a payment.' };
  const o = screen.order;
  return {
    available: true,
    sn,
    pending: {
      outOrderNo: o.outOrderNo,
      orderNo: o.orderNo,
      amountKobo: o.amountKobo ?? nairaStringToKobo(o.amount),
      expiresAt: o.expiresAt,
    },
    message:
      screen.queued > 1 ? `Card payment requested (${screen.queued - 1} more waiting)` : 'Card payment requested',
  };
}
