// When the Hub paused this tab's live feed (another stream of this session took its place), the top
// of every screen says why and offers to follow here again.
import { useDash } from '../store';
import '../managers.css';

export function LivePaused() {
  const live = useDash((s) => s.live);
  const resume = useDash((s) => s.resumeLive);
  if (live.status !== 'paused') return null;
  return (
    <div className="banner live-paused" data-tone="warn" role="status" data-testid="live-paused">
      <span>Live updates are paused in this tab: {live.reason ?? 'the Hub closed the live feed.'}</span>
      <button type="button" onClick={resume}>
        Follow live here again
      </button>
    </div>
  );
}
