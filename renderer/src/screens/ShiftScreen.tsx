export function ShiftScreen() {
  return (
    <section aria-labelledby="screen-title" className="screen">
      <h1 id="screen-title" tabIndex={-1}>
        Shift
      </h1>
      <p className="placeholder">Opening and closing a shift, with its totals, will be here.</p>
    </section>
  );
}
