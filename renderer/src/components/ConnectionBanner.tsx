// Shown above every screen while the page has lost its event stream to CounterPay: what the
// cashier sees may be out of date until it comes back (then every store re-reads by itself).
import { useApp } from '../stores/app-store';
import { Banner } from './Banner';

export function ConnectionBanner() {
  const connected = useApp((s) => s.connected);
  if (connected) return null;
  return (
    <Banner as="div" tone="bad" role="alert" data-testid="lost-contact">
      Lost contact with CounterPay, reconnecting… This screen may be out of date. Wait for this message to go before you
      start another sale or hand anything back. Payments already on the terminal are safe: their result shows when
      contact is back.
    </Banner>
  );
}
