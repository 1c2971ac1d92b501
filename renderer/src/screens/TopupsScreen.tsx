// Top-ups: airtime and betting wallets, one at a time (Single) or from a CSV file (Batch).
// Main owns every top-up; this screen loads them once (the stores follow main's events).
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useTopups, type TopupsTab } from '../stores/topups-store';
import { useBatch } from '../stores/batch-store';
import { BatchTopups } from './topups/BatchTopups';
import { SingleForm } from './topups/SingleForm';
import { RecentTopups, TopupResult } from './topups/TopupResult';
import '../topups.css';

const TABS: { id: TopupsTab; label: string }[] = [
  { id: 'single', label: 'Single' },
  { id: 'batch', label: 'Batch' },
];

export function TopupsScreen() {
  const s = useTopups(useShallow((st) => ({ tab: st.tab, setTab: st.setTab, load: st.load, showing: st.current !== null })));
  const loadBatches = useBatch((b) => b.loadList);

  useEffect(() => {
    void s.load();
    void loadBatches();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const onTabKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    const i = TABS.findIndex((t) => t.id === s.tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    s.setTab(next.id);
    document.getElementById(`tu-tab-${next.id}`)?.focus();
  };

  return (
    <section aria-labelledby="screen-title" className="screen tu-screen">
      <div className="screen-head">
        <h1 id="screen-title" tabIndex={-1}>
          Top-ups
        </h1>
        <div className="tabs tu-tabs" role="tablist" aria-label="Top-up mode" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.id} id={`tu-tab-${t.id}`} type="button" role="tab" aria-selected={s.tab === t.id} aria-controls={`tu-panel-${t.id}`}
              tabIndex={s.tab === t.id ? 0 : -1} onClick={() => s.setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
      </div>
      {s.tab === 'single' ? (
        <div id="tu-panel-single" role="tabpanel" aria-labelledby="tu-tab-single" className="tu-layout">
          <div className="tu-main">{s.showing ? <TopupResult /> : <SingleForm />}</div>
          <aside className="tu-side">
            <RecentTopups />
          </aside>
        </div>
      ) : (
        <div id="tu-panel-batch" role="tabpanel" aria-labelledby="tu-tab-batch">
          <BatchTopups />
        </div>
      )}
    </section>
  );
}
