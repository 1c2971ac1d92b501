// The ARIA tab pattern in one place: a tablist whose tabs name the panel they control, one tab in
// the Tab order (the selected one), and Left/Right/Home/End moving the selection and the focus.
import type { ReactNode } from 'react';

interface TabsProps<T extends string> {
  /** Prefix of the tab and panel ids (`${idPrefix}-tab-x`, `${idPrefix}-panel-x`). */
  idPrefix: string;
  label: string;
  tabs: readonly { id: T; label: string }[];
  selected: T;
  onSelect(id: T): void;
  className?: string;
}

const tabId = (idPrefix: string, id: string) => `${idPrefix}-tab-${id}`;
const panelId = (idPrefix: string, id: string) => `${idPrefix}-panel-${id}`;

const STEP: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i + n - 1) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

export function Tabs<T extends string>({ idPrefix, label, tabs, selected, onSelect, className }: TabsProps<T>) {
  const onKey = (e: React.KeyboardEvent) => {
    const step = STEP[e.key];
    if (!step) return;
    e.preventDefault();
    const next =
      tabs[
        step(
          tabs.findIndex((t) => t.id === selected),
          tabs.length,
        )
      ]!;
    onSelect(next.id);
    document.getElementById(tabId(idPrefix, next.id))?.focus();
  };
  return (
    <div className={className ? `tabs ${className}` : 'tabs'} role="tablist" aria-label={label} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          id={tabId(idPrefix, t.id)}
          type="button"
          role="tab"
          aria-selected={selected === t.id}
          aria-controls={panelId(idPrefix, t.id)}
          tabIndex={selected === t.id ? 0 : -1}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of the selected tab. */
export function TabPanel({
  idPrefix,
  id,
  className,
  children,
}: {
  idPrefix: string;
  id: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div id={panelId(idPrefix, id)} role="tabpanel" aria-labelledby={tabId(idPrefix, id)} className={className}>
      {children}
    </div>
  );
}
