// One manager's open sessions (on the Managers screen): when each started and was last used; end one,
// or all of them. The session head office is using is marked and cannot be ended here (Log out does).
import { useState } from 'react';
import { z } from 'zod';
import { ManagerSessionsSchema, type ManagerRosterEntry } from '../../../../shared/hub-dashboard-contract';
import { api, errorText } from '../api';
import { agoText, lagosDayTime } from '../format';
import { useLoad, useNow } from '../use-load';
import { Banner, Loading } from './bits';

const Ended = z.object({ sessionsEnded: z.number().int() });

export function ManagerSessions({ m, onEnded }: { m: ManagerRosterEntry; onEnded: () => void }) {
  const path = `/managers/${encodeURIComponent(m.id)}/sessions`;
  const r = useLoad(`sessions:${m.id}`, () => api.get(path, ManagerSessionsSchema));
  const now = useNow(30_000);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = r.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;

  async function end(ref: string | null) {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const x = await api.post(`${path}/end`, Ended, ref ? { ref } : {});
      setNote(
        `${x.sessionsEnded} session${x.sessionsEnded === 1 ? '' : 's'} of ${m.name} ended: that computer or phone is sent to the login page.`,
      );
      r.reload();
      onEnded();
    } catch (e) {
      setError(errorText(e));
      r.reload();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="sessions" role="group" aria-label={`Sessions of ${m.name}`} data-testid="manager-sessions">
      <h3>Open sessions of {m.name}</h3>
      {r.error ? <Banner tone="bad">{r.error}</Banner> : null}
      {!r.data ? (
        r.error ? null : (
          <Loading what="the sessions" />
        )
      ) : list.length === 0 ? (
        <p className="hint">No open session: {m.name} is not logged in anywhere.</p>
      ) : (
        <ul className="session-list">
          {list.map((s) => (
            <li key={s.ref} data-session={s.ref}>
              <span>
                <strong>Logged in {lagosDayTime(s.createdAt)}</strong>
                {s.current ? (
                  <span className="pill" data-tone="info">
                    This session (you)
                  </span>
                ) : null}
              </span>
              <span className="hint">
                last used {agoText(s.lastSeenAt, now)} · ends by {lagosDayTime(s.expiresAt)}
              </span>
              {s.current ? null : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void end(s.ref)}
                  aria-label={`End the session of ${m.name} started ${lagosDayTime(s.createdAt)}`}
                >
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 1 ? (
        <div className="actions">
          <button type="button" className="danger" disabled={busy} onClick={() => void end(null)}>
            End all {others} sessions of {m.name}
          </button>
        </div>
      ) : null}
      {error ? <Banner tone="bad">{error}</Banner> : null}
      {note ? <Banner tone="good">{note}</Banner> : null}
    </div>
  );
}
