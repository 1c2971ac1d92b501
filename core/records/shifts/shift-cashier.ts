// Whose shift was open at a moment, for the Hub's copy of a sale (the outbox sink asks it while the
// orders module writes the sale, so orders never read the shifts table themselves).
import type { Db } from '../../db';
import { ShiftStore } from './shift-store';

export function shiftCashierAt(db: Db): (at: number) => string {
  const shifts = new ShiftStore(db);
  return (at) => shifts.cashierAt(at);
}

/** The shift open at a moment (null: none), for an undo after the sale (the orders module never reads shifts). */
export function shiftOpenAt(db: Db): (at: number) => { id: number; cashier: string } | null {
  const shifts = new ShiftStore(db);
  return (at) => shifts.openAt(at);
}
