// Head office ends held seats of a show from its seat map: all of the show's, or one counter's (in
// every show: a counter stuck or misbehaving). Each is confirmed first and kept in the audit log;
// sold seats stay sold (they are paid sales).
import { useState } from 'react';
import { ReleaseSeatsResponseSchema, type DashSeatTaken } from '../../../../shared/hub-seats-contract';
import { api, errorText } from '../api';
import { formatCount } from '../format';
import { Banner } from './bits';

type Target = { kind: 'show' } | { kind: 'counter'; counterId: string; counterName: string };

export function ReleaseHolds({
  branch,
  showKey,
  taken,
  onReleased,
}: {
  branch: string;
  showKey: string;
  taken: readonly DashSeatTaken[];
  onReleased: () => void;
}) {
  const [confirm, setConfirm] = useState<Target | null>(null);
  const [message, setMessage] = useState<{ tone: 'good' | 'bad'; text: string } | null>(null);
  const held = taken.filter((t) => t.state === 'held');
  const holders = new Map<string, { name: string; seats: number }>();
  for (const t of held) {
    const h = holders.get(t.counterId) ?? { name: t.counterName, seats: 0 };
    h.seats += 1;
    holders.set(t.counterId, h);
  }
  if (!held.length && !message) return null;

  async function release(t: Target) {
    try {
      const body = t.kind === 'show' ? { branch, showKey } : { branch, counterId: t.counterId };
      const r = await api.post('/seats/release', ReleaseSeatsResponseSchema, body);
      setConfirm(null);
      const who = t.kind === 'show' ? 'of this show' : `of ${t.counterName} (every show)`;
      setMessage({
        tone: 'good',
        text: `${formatCount(r.released)} held seat${r.released === 1 ? '' : 's'} ${who} released.`,
      });
      onReleased();
    } catch (e) {
      setMessage({ tone: 'bad', text: `Nothing was released: ${errorText(e)}` });
    }
  }

  const what = (t: Target) =>
    t.kind === 'show'
      ? `the ${formatCount(held.length)} held seat${held.length === 1 ? '' : 's'} of this show`
      : `every seat ${t.counterName} holds (in any show)`;
  return (
    <div className="release-holds" data-testid="release-holds">
      {confirm ? (
        <div role="group" aria-label="Release held seats?" className="confirm">
          <p>
            <strong>Release {what(confirm)}?</strong> A sale being paid for them loses its seats: if its customer pays,
            the seats are sold again when its counter syncs (or shown as sold twice). Sold seats stay sold.
          </p>
          <div className="actions">
            <button type="button" className="danger" autoFocus onClick={() => void release(confirm)}>
              Release
            </button>
            <button type="button" onClick={() => setConfirm(null)}>
              Keep them
            </button>
          </div>
        </div>
      ) : held.length ? (
        <div className="actions">
          <button type="button" onClick={() => setConfirm({ kind: 'show' })}>
            Release the held seats of this show…
          </button>
          {[...holders].map(([id, h]) => (
            <button
              key={id}
              type="button"
              onClick={() => setConfirm({ kind: 'counter', counterId: id, counterName: h.name })}
            >
              Release {h.name}&apos;s held seats ({formatCount(h.seats)} here)…
            </button>
          ))}
        </div>
      ) : null}
      {message ? <Banner tone={message.tone}>{message.text}</Banner> : null}
    </div>
  );
}
