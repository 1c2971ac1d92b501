// The branches' names as head office set them, read once per session and after each change; every
// screen shows a branch by its name (or "Branch <id>" until it has one). Names are text: React
// renders them as text, never as markup.
import { useEffect } from 'react';
import { create } from 'zustand';
import { BranchesViewSchema, branchLabel, type BranchView } from '../../../shared/hub-branches-contract';
import { api } from './api';

interface BranchNames {
  list: BranchView[];
  names: ReadonlyMap<string, string>;
  set: (list: BranchView[]) => void;
}

export const useBranchNames = create<BranchNames>((set) => ({
  list: [],
  names: new Map(),
  set: (list) => set({ list, names: new Map(list.flatMap((b) => (b.name ? [[b.branch, b.name] as const] : []))) }),
}));

/** Reads the names again (after login, and after head office changes one). */
export async function refreshBranchNames(): Promise<void> {
  useBranchNames.getState().set((await api.get('/branches', BranchesViewSchema)).branches);
}

/** Loads the names once the session is there; a failure leaves the ids showing. */
export function useLoadBranchNames(managerId: string | undefined): void {
  useEffect(() => {
    if (managerId) refreshBranchNames().catch(() => undefined);
  }, [managerId]);
}

/** What people read for a branch id. */
export function useBranchLabel(): (branch: string) => string {
  const names = useBranchNames((s) => s.names);
  return (branch) => branchLabel(branch, names);
}
