// Top-ups: airtime and betting wallets, one at a time (Single) or from a CSV file (Batch).
// Main owns every top-up; this screen loads them once (the stores follow main's events).
import { useOnMount } from '../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { ScreenHead } from '../components/ScreenHead';
import { TabPanel, Tabs } from '../components/Tabs';
import { useTopups, type TopupsTab } from '../stores/topups-store';
import { useBatch } from '../stores/batch-store';
import { BatchTopups } from './topups/BatchTopups';
import { SingleForm } from './topups/SingleForm';
import { RecentTopups, TopupResult } from './topups/TopupResult';
import '../topups-screen.css';

const TABS: { id: TopupsTab; label: string }[] = [
  { id: 'single', label: 'Single' },
  { id: 'batch', label: 'Batch' },
];

export function TopupsScreen() {
  const s = useTopups(
    useShallow((st) => ({ tab: st.tab, setTab: st.setTab, load: st.load, showing: st.current !== null })),
  );
  const loadBatches = useBatch((b) => b.loadList);

  useOnMount(() => {
    void s.load();
    void loadBatches();
  });

  return (
    <section aria-labelledby="screen-title" className="screen tu-screen">
      <ScreenHead title="Top-ups">
        <Tabs idPrefix="tu" label="Top-up mode" tabs={TABS} selected={s.tab} onSelect={s.setTab} className="tu-tabs" />
      </ScreenHead>
      {s.tab === 'single' ? (
        <TabPanel idPrefix="tu" id="single" className="tu-layout">
          <div className="tu-main">{s.showing ? <TopupResult /> : <SingleForm />}</div>
          <aside className="tu-side">
            <RecentTopups />
          </aside>
        </TabPanel>
      ) : (
        <TabPanel idPrefix="tu" id="batch">
          <BatchTopups />
        </TabPanel>
      )}
    </section>
  );
}
