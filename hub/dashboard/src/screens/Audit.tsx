// Audit (head office): who did what, newest first, by Lagos day — logins (and failed ones) and the
// address they came from, the Hub's first-start setup, manager accounts created, disabled, removed or
// given a new password, sessions ended, enrollment codes issued, counters revoked, programmes imported. Older entries a page at a time.
import { useState } from 'react';
import { z } from 'zod';
import { AuditEntrySchema, CountersViewSchema, type AuditEntry } from '../../../../shared/hub-dashboard-contract';
import { lagosDate } from '../../../../shared/time';
import { api, errorText } from '../api';
import { useBranchLabel } from '../branch-names';
import { Banner, Link, Loading, ScreenTitle } from '../components/bits';
import { dayLong, lagosTimeSeconds } from '../format';
import { auditKind, auditWhat } from '../manager-view';
import { BASE, useDash } from '../store';
import { useLoad } from '../use-load';
import '../managers.css';

const PAGE = 100;
const AuditPageSchema = z.object({ entries: z.array(AuditEntrySchema) });
const KIND_TEXT = { login: 'Login', manager: 'Account', counter: 'Counter', programme: 'Programme' } as const;

function byDay(entries: AuditEntry[]): [string, AuditEntry[]][] {
  const days = new Map<string, AuditEntry[]>();
  for (const e of entries) {
    const d = lagosDate(e.at);
    days.set(d, [...(days.get(d) ?? []), e]);
  }
  return [...days];
}

export function AuditScreen() {
  const session = useDash((s) => s.session)!;
  const headOffice = session.manager.role === 'head-office';
  const label = useBranchLabel();
  const first = useLoad(`audit:${headOffice}`, () =>
    headOffice
      ? api.get('/audit', AuditPageSchema, new URLSearchParams({ limit: String(PAGE) }))
      : Promise.resolve({ entries: [] }),
  );
  const counters = useLoad(`audit-counters:${headOffice}`, () =>
    headOffice ? api.get('/counters', CountersViewSchema).then((r) => r.counters) : Promise.resolve([]),
  );
  const [older, setOlder] = useState<{ key: unknown; entries: AuditEntry[]; end: boolean }>({
    key: null,
    entries: [],
    end: false,
  });
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  if (!headOffice) {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <ScreenTitle>
          <span id="screen-title">Audit</span>
        </ScreenTitle>
        <Banner tone="info">
          Only head office reads the audit log. <Link to={`${BASE}today`}>Go to Today</Link>.
        </Banner>
      </section>
    );
  }
  // Older pages belong to the first page they followed: a refresh starts over.
  const extra = older.key === first.data ? older : { key: first.data, entries: [], end: false };
  const entries = [...(first.data?.entries ?? []), ...extra.entries];
  const end = extra.end || (first.data !== null && first.data.entries.length < PAGE);
  const names = new Map((counters.data ?? []).map((c) => [c.id, c.name]));

  async function loadOlder() {
    const last = entries.at(-1);
    if (!last) return;
    setMore({ busy: true, error: null });
    try {
      const p = await api.get(
        '/audit',
        AuditPageSchema,
        new URLSearchParams({ limit: String(PAGE), before: String(last.id) }),
      );
      setOlder({ key: first.data, entries: [...extra.entries, ...p.entries], end: p.entries.length < PAGE });
      setMore({ busy: false, error: null });
    } catch (e) {
      setMore({ busy: false, error: errorText(e) });
    }
  }

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenTitle
        aside={
          <button type="button" onClick={first.reload}>
            Refresh
          </button>
        }
      >
        <span id="screen-title">Audit</span>
      </ScreenTitle>
      <p className="hint">
        Who did what on this Hub, newest first, in Lagos time: logins and failed logins (and where from), manager
        accounts, enrollment codes issued, counters revoked, programmes imported.
      </p>
      {first.error ? <Banner tone="bad">{first.error}</Banner> : null}
      {!first.data ? (
        first.error ? null : (
          <Loading what="the audit log" />
        )
      ) : entries.length === 0 ? (
        <p className="hint">Nothing yet.</p>
      ) : (
        <div data-testid="audit-log">
          {byDay(entries).map(([day, list]) => (
            <section key={day} className="audit-day" aria-label={dayLong(day)}>
              <h2 className="audit-day-title">{dayLong(day)}</h2>
              <ol className="audit-list card">
                {list.map((e) => (
                  <li key={e.id} className="audit-entry" data-action={e.action} data-kind={auditKind(e.action)}>
                    <time className="audit-time num" dateTime={new Date(e.at).toISOString()}>
                      {lagosTimeSeconds(e.at)}
                    </time>
                    <span className="audit-kind pill">{KIND_TEXT[auditKind(e.action)]}</span>
                    <span className="audit-what">
                      <strong>{e.actorName}</strong> {auditWhat(e, (id) => names.get(id) ?? null, label)}
                    </span>
                    <span className="audit-from hint">{e.address ? `from ${e.address}` : ''}</span>
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      )}
      {more.error ? <Banner tone="bad">{more.error}</Banner> : null}
      {first.data && !end ? (
        <div className="actions">
          <button type="button" disabled={more.busy} onClick={() => void loadOlder()}>
            {more.busy ? 'Loading…' : 'Show older entries'}
          </button>
        </div>
      ) : null}
      {first.data && end && entries.length > 0 ? <p className="hint">That is the whole log.</p> : null}
    </section>
  );
}
