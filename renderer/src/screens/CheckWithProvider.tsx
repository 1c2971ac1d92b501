// A closed unpaid sale's actions, on the Sell panel and the order detail: Check with the provider
// first (one status query, its answer recorded by the engine), then Try again only when that check
// said not paid (closed-order.ts decides; the engine refuses a retry otherwise too). A box office's
// charge is never tried again from the counter: the box office heard the outcome and asks again
// with a new booking reference (docs/integration.md), so Try again is not offered for it.
import { useEffect, type ReactNode, type Ref } from 'react';
import { Banner } from '../components/Banner';
import { useIntegrations } from '../stores/integrations-store';
import type { ClosedStep } from './closed-order';

export function CheckWithProvider(props: {
  orderId: number;
  step: Exclude<ClosedStep, { kind: 'none' }>;
  busy: boolean;
  onCheck: () => void;
  onRetry: () => void;
  /** The main action's button (focused at the outcome on the Sell panel). */
  primaryRef?: Ref<HTMLButtonElement>;
  /** What Try again does on this screen. */
  retryHint: string;
  /** More buttons after these (New sale). */
  children?: ReactNode;
}) {
  const { step, busy, orderId } = props;
  const origin = useIntegrations((st) => st.origins[orderId]);
  const originOf = useIntegrations((st) => st.originOf);
  useEffect(() => {
    void originOf(orderId);
  }, [orderId, originOf]);
  const retry = step.kind === 'checked' && step.retry && !origin;
  return (
    <>
      {step.kind === 'checked' && (
        <Banner tone={retry ? 'info' : 'bad'} role="status" data-testid="check-answer">
          {step.answer}
        </Banner>
      )}
      <div className="actions pay-actions">
        {retry && (
          <button ref={props.primaryRef} type="button" className="primary" disabled={busy} onClick={props.onRetry}>
            {busy ? 'Working…' : 'Try again'}
          </button>
        )}
        <button
          ref={retry ? undefined : props.primaryRef}
          type="button"
          className={retry ? undefined : 'primary'}
          disabled={busy}
          onClick={props.onCheck}
        >
          {busy
            ? 'Asking the provider…'
            : step.kind === 'checked'
              ? 'Check with the provider again'
              : 'Check with the provider'}
        </button>
        {props.children}
      </div>
      <p className="hint">
        {origin
          ? `Asked by ${origin.integration} (booking ${origin.reference}): Try again is not offered here. ${origin.integration} has been told the outcome and asks again with a new booking reference.`
          : retry
            ? props.retryHint
            : 'Customer says they paid, or wants to pay again? Check with the provider first: it says whether the money was taken. Try again is offered once it says not paid.'}
      </p>
    </>
  );
}
