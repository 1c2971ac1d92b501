export function OrdersScreen() {
  return (
    <section aria-labelledby="screen-title" className="screen">
      <h1 id="screen-title" tabIndex={-1}>
        Orders
      </h1>
      <p className="placeholder">Today's orders and the queue will be listed here.</p>
    </section>
  );
}
