// Charging needs an open shift. Tests about something else open one the way a cashier does before
// the first sale (once: a shift already open is kept), through whatever call function they use.
export async function ensureShift(
  call: (name: string, args: unknown) => Promise<unknown>,
  cashier = 'Ngozi',
): Promise<void> {
  const current = (await call('shift.current', {})) as { shift: unknown };
  if (!current.shift) await call('shift.open', { cashier, openingFloat: '' });
}
