// Whose shift was open at a moment, for the Hub's copy of a sale (the outbox sink asks it while the
// orders module writes the sale, so orders never read the shifts table themselves); and the shift
// open at a moment with what its drawer should hold, for an undo after the sale (docs/refunds.md).
import { drawerHolds } from '../../../shared/drawer';
import type { Db } from '../../db';
import { OrderJournalReads } from '../../orders';
import { DrawerStore } from './drawer-store';
import { scopeOf } from './shift-drawer';
import { ShiftStore } from './shift-store';
import { drawerFactsAt } from './shift-totals';

export function shiftCashierAt(db: Db): (at: number) => string {
  const shifts = new ShiftStore(db);
  return (at) => shifts.cashierAt(at);
}

/** The shift open at a moment and its drawer (null: no shift), as an undo after the sale asks it. */
export interface OpenShiftAt {
  id: number;
  /**
   * What the drawer should hold at `at` (shared/drawer.ts), for a cash refund of a sale (Demo or
   * not); null when the drawer does not count that sale's cash (a Demo sale in a real shift).
   */
  drawerHolds: (demoSale: boolean) => number | null;
}

export function shiftOpenAt(db: Db): (at: number) => OpenShiftAt | null {
  const shifts = new ShiftStore(db);
  const drawer = new DrawerStore(db);
  const orders = new OrderJournalReads(db);
  return (at) => {
    const open = shifts.openAt(at);
    const shift = open ? shifts.get(open.id) : null;
    if (!shift) return null;
    return {
      id: shift.id,
      drawerHolds: (demoSale) => {
        const scope = scopeOf(shift);
        if (demoSale && scope.excludeDemo) return null;
        const facts = drawerFactsAt(orders, drawer.facts(shift, at), shift.openedAt, at, scope);
        return drawerHolds(facts, shift.openedAt, at);
      },
    };
  };
}
