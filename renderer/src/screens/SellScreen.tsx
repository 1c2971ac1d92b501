export function SellScreen() {
  return (
    <section aria-labelledby="screen-title" className="screen">
      <h1 id="screen-title" tabIndex={-1}>
        Sell tickets
      </h1>
      <p className="placeholder">Selling tickets and taking the card payment on the terminal arrives with the checkout work.</p>
    </section>
  );
}
