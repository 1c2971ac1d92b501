// The Demo profile's simulated terminal, drawn like a POS screen: it shows the payment waiting on
// it, and Pay / Decline / Cancel stand in for the customer's card. No real money moves.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useTerminal, type DemoOutcome } from '../stores/terminal-store';
import { useNow } from './useNow';
import { formatNaira, mmss } from '../format';

const BUTTONS: { outcome: DemoOutcome; label: string; hint: string }[] = [
  { outcome: 'SUCCESS', label: 'Pay', hint: 'The card is approved' },
  { outcome: 'FAIL', label: 'Decline', hint: 'The bank declines the card' },
  { outcome: 'CANCEL', label: 'Cancel', hint: 'The customer presses Cancel on the terminal' },
];

export function DemoTerminalPanel() {
  const { demo, demoError, demoBusy, loadDemo, present } = useTerminal(
    useShallow((s) => ({
      demo: s.demo,
      demoError: s.demoError,
      demoBusy: s.demoBusy,
      loadDemo: s.loadDemo,
      present: s.present,
    })),
  );
  useEffect(() => {
    void loadDemo();
  }, [loadDemo]);

  const pending = demo?.pending ?? null;
  const now = useNow(pending !== null);
  const canPress = !!demo?.available && pending !== null && demoBusy === null;

  return (
    <section className="demo-terminal" aria-labelledby="demo-terminal-title" data-testid="demo-terminal">
      <h2 id="demo-terminal-title" className="demo-title">
        Demo terminal <span className="demo-tag">simulated · no real money</span>
      </h2>
      <div className="pos-body">
        <div className="pos-screen">
          <div className="pos-sn">{demo?.sn ?? 'DEMO'}</div>
          {!demo ? (
            <div className="pos-message">{demoError ?? 'Starting…'}</div>
          ) : pending ? (
            <>
              <div className="pos-label">AMOUNT</div>
              <div className="pos-amount" data-testid="demo-amount">
                {formatNaira(pending.amountKobo)}
              </div>
              <div className="pos-ref">Ref {pending.outOrderNo}</div>
              <div className="pos-message">{demo.message || 'Insert, tap or swipe card'}</div>
              <div className="pos-timer" aria-hidden="true">
                {mmss(pending.expiresAt - now)}
              </div>
            </>
          ) : (
            <div className="pos-message pos-idle">{demo.message || 'Ready'}</div>
          )}
        </div>
        <div className="pos-keys" role="group" aria-label="Customer on the demo terminal">
          {BUTTONS.map((b) => (
            <button
              key={b.outcome}
              type="button"
              className="pos-key"
              data-outcome={b.outcome}
              disabled={!canPress}
              title={b.hint}
              onClick={() => void present(b.outcome)}
            >
              {demoBusy === b.outcome ? '…' : b.label}
            </button>
          ))}
        </div>
      </div>
      {demoError && demo && (
        <p className="field-error" role="alert">
          {demoError}
        </p>
      )}
      <p className="hint demo-help">
        {pending
          ? 'Press a key to play the customer.'
          : 'When you charge a sale, it appears here as on a real terminal.'}
      </p>
    </section>
  );
}
