// "Debited?": the complaint desk (docs/cashier-guide.md, "A customer says they were debited").
// Keyboard first: the last four, the amount, when and the terminal, Enter searches; ↓/↑ choose a
// candidate and Enter asks the provider about it; the truth in big words; then open the case,
// print its slip for the customer, resolve it. Main owns every rule (core/cases).
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  caseAge,
  CASE_RESOLUTION_LABELS,
  CASE_RESOLUTIONS,
  CASE_TRUTH_LABELS,
  type CaseTruth,
} from '../../../shared/cases';
import { Banner, outcome } from '../components/Banner';
import { Field } from '../components/Field';
import { ScreenHead } from '../components/ScreenHead';
import { useOnMount } from '../components/useOnChange';
import { formatLagosDateTime, formatLagosTime, formatNaira } from '../format';
import { useDesk, type DeskForm } from '../stores/desk-store';
import { useShift } from '../stores/shift-store';
import '../desk-screen.css';

const TONE: Record<CaseTruth, 'good' | 'bad' | 'warn' | 'info'> = {
  'paid-tickets-given': 'good',
  'paid-after-closing': 'warn',
  'not-paid': 'info',
  unknown: 'bad',
};

const FIELDS: { key: keyof DeskForm; label: string; hint: string; mode: 'numeric' | 'decimal' | 'text' }[] = [
  { key: 'last4', label: 'Card’s last four digits', hint: 'From the bank alert or the card', mode: 'numeric' },
  { key: 'amount', label: 'Amount (₦)', hint: 'What they were debited', mode: 'decimal' },
  { key: 'when', label: 'Roughly when (HH:mm)', hint: '±3 hours; empty: the last 72 hours', mode: 'text' },
  { key: 'sn', label: 'Terminal (serial number)', hint: 'Optional', mode: 'text' },
];

export function DeskScreen() {
  const message = useDesk((s) => s.message);
  const hasCheck = useDesk((s) => s.check !== null);
  const cashier = useShift((s) => s.current?.cashier ?? '');

  useOnMount(() => {
    const act = useDesk.getState();
    void act.loadCases();
    if (!act.name && cashier) act.setName(cashier);
  });

  return (
    <section aria-labelledby="screen-title" className="screen desk-screen">
      <ScreenHead title="Debited? The complaint desk" />
      {message && (
        <Banner {...outcome(message.kind === 'ok')} data-testid="desk-message">
          {message.text}
        </Banner>
      )}
      <div className="desk-layout">
        <div className="desk-main">
          <ComplaintForm />
          <Candidates />
        </div>
        <aside className="desk-side">
          {hasCheck && <Truth />}
          <CasePanel />
          <OpenCases />
        </aside>
      </div>
    </section>
  );
}

/** What the customer says; Enter searches and moves to the candidates. */
function ComplaintForm() {
  const d = useDesk(useShallow((s) => ({ form: s.form, errors: s.errors, busy: s.busy })));
  const act = useDesk.getState();
  return (
    <form
      className="card desk-form"
      aria-label="What the customer says"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void act.search().then((ok) => {
          if (ok) document.querySelector<HTMLElement>('[data-testid="desk-candidates"]')?.focus();
        });
      }}
    >
      {FIELDS.map((f, i) => (
        <Field key={f.key} label={f.label} hint={f.hint} error={d.errors[f.key]}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              inputMode={f.mode}
              autoComplete="off"
              value={d.form[f.key]}
              data-autofocus={i === 0 ? true : undefined}
              onChange={(e) => act.setField(f.key, e.target.value)}
            />
          )}
        </Field>
      ))}
      <button type="submit" className="primary" disabled={d.busy === 'search'}>
        {d.busy === 'search' ? 'Searching…' : 'Search (Enter)'}
      </button>
    </form>
  );
}

/** The payments found: ↓/↑ to choose, Enter to ask the provider. */
function Candidates() {
  const d = useDesk(
    useShallow((s) => ({ candidates: s.candidates, branch: s.searchedBranch, selected: s.selected, busy: s.busy })),
  );
  const act = useDesk.getState();
  if (!d.candidates) return null;
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      act.move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void act.checkSelected();
    }
  };
  const n = d.candidates.length;
  return (
    <div className="card desk-found">
      <h2>
        {n === 0 ? 'No payment found' : `${n} possible payment${n === 1 ? '' : 's'}`}
        <span className="muted">{d.branch ? ' · this counter and the branch' : ' · this counter only'}</span>
      </h2>
      {n === 0 ? (
        <p>Nothing fits: ask for another detail, or open a case so the manager can check with the bank.</p>
      ) : (
        <ul
          role="listbox"
          tabIndex={0}
          aria-label="Possible payments: ↓/↑ to choose, Enter to ask the provider"
          aria-activedescendant={`desk-c-${d.selected}`}
          className="desk-candidates"
          data-testid="desk-candidates"
          onKeyDown={onKey}
        >
          {d.candidates.map((c, i) => (
            <li
              key={c.outOrderNo}
              id={`desk-c-${i}`}
              role="option"
              aria-selected={i === d.selected}
              onClick={() => {
                act.select(i);
                void act.checkSelected();
              }}
            >
              <strong>{formatNaira(c.amountKobo)}</strong>
              <span>{formatLagosDateTime(c.createdAt)}</span>
              <span>{c.senderAccount ?? 'card not known yet'}</span>
              <span>
                {c.filmTitle} {c.seats}
              </span>
              <span className="muted">
                {c.outOrderNo} · {c.where === 'branch' ? c.counterName : 'this counter'} ·{' '}
                {c.state === 'paid-after-closing' ? 'paid after closing' : c.state}
              </span>
            </li>
          ))}
        </ul>
      )}
      {d.busy === 'check' && <p role="status">Asking the provider…</p>}
    </div>
  );
}

/** The provider's truth in big words, focused when it comes: the next key acts on it. */
function Truth() {
  const check = useDesk((s) => s.check);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (check) ref.current?.focus();
  }, [check]);
  if (!check) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="card desk-truth"
      data-tone={TONE[check.truth]}
      role="status"
      data-testid="case-truth"
    >
      <p className="desk-truth-line">{CASE_TRUTH_LABELS[check.truth]}</p>
      <p className="desk-truth-proof">{proofOf(check.line, CASE_TRUTH_LABELS[check.truth])}</p>
      <p className="muted">
        {check.candidate.outOrderNo} · {formatNaira(check.candidate.amountKobo)} ·{' '}
        {formatLagosDateTime(check.candidate.createdAt)}
      </p>
    </div>
  );
}

/** Who acts, the case, its slip and its resolution. */
function CasePanel() {
  const d = useDesk(
    useShallow((s) => ({
      name: s.name,
      busy: s.busy,
      current: s.current,
      searched: s.candidates !== null,
      truth: s.check?.truth,
    })),
  );
  const act = useDesk.getState();
  const open = d.current !== null && d.current.resolvedAt === null;
  return (
    <div className="card desk-case">
      <Field label="Your name" hint="Who opens or resolves the case">
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            value={d.name}
            autoComplete="off"
            onChange={(e) => act.setName(e.target.value)}
          />
        )}
      </Field>
      {d.current && (
        <p className="desk-caseno" data-testid="case-no">
          Case <strong>{d.current.caseNo}</strong>{' '}
          <span className="pill" data-tone={open ? 'warn' : 'good'}>
            {open || !d.current.resolution ? 'Open' : `Closed: ${CASE_RESOLUTION_LABELS[d.current.resolution]}`}
          </span>
        </p>
      )}
      <div className="desk-actions">
        <button
          type="button"
          className={d.current ? undefined : 'primary'}
          disabled={!!d.current || d.busy !== null || !d.searched}
          onClick={() => void act.openCase()}
        >
          Open case
        </button>
        <button type="button" disabled={!d.current || d.busy !== null} onClick={() => void act.printSlip()}>
          Print slip
        </button>
      </div>
      {open && (
        <div className="desk-actions" role="group" aria-label="Resolve the case">
          {CASE_RESOLUTIONS.map((r) => (
            <button
              key={r}
              type="button"
              className={r === suggested(d.truth) ? 'primary' : undefined}
              disabled={d.busy !== null}
              onClick={() => void act.resolve(r)}
            >
              {CASE_RESOLUTION_LABELS[r]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The engine's one line less its big words: the provider's answer and time ("The provider says SUCCESS at 21:04."). */
function proofOf(line: string, label: string): string {
  const rest = line.startsWith(label) ? line.slice(label.length).trim() : line;
  const inner = /^\((.*)\)\.?$/.exec(rest)?.[1] ?? rest;
  return inner ? `${inner.charAt(0).toUpperCase()}${inner.slice(1)}.` : '';
}

/** The resolution the truth points to. */
function suggested(t: CaseTruth | undefined) {
  return t === 'not-paid'
    ? 'not-debited'
    : t === 'paid-after-closing' || t === 'paid-tickets-given'
      ? 'tickets-given'
      : null;
}

function OpenCases() {
  const cases = useDesk((s) => s.cases);
  const open = cases?.items.filter((c) => c.resolvedAt === null) ?? [];
  return (
    <div className="card desk-open" data-testid="open-cases">
      <h2>Open cases: {cases?.open ?? 0}</h2>
      {open.length === 0 ? (
        <p className="muted">None open.</p>
      ) : (
        <ul>
          {open.map((c) => {
            const age = caseAge(c.openedAt, Date.now());
            return (
              <li key={c.id}>
                <strong>{c.caseNo}</strong> {formatLagosTime(c.openedAt)} by {c.openedBy}{' '}
                {age !== 'fresh' && (
                  <span className="pill" data-tone={age === 'overdue' ? 'bad' : 'warn'}>
                    {age === 'overdue' ? 'Over 72 h' : 'Over 48 h'}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
