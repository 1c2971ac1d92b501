export function TopupsScreen() {
  return (
    <section aria-labelledby="screen-title" className="screen">
      <h1 id="screen-title" tabIndex={-1}>
        Top-ups
      </h1>
      <p className="placeholder">Airtime and betting top-ups arrive with the top-ups work.</p>
    </section>
  );
}
