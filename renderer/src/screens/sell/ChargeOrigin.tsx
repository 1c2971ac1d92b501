// On the payment panel: which system asked for this charge and its booking reference (nothing for
// the cashier's own sale).
import { useEffect } from 'react';
import { useIntegrations } from '../../stores/integrations-store';

const VIA = { api: 'its integration API call', link: 'a charge link', folder: 'the inbox folder' } as const;

export function ChargeOrigin({ orderId }: { orderId: number }) {
  const origin = useIntegrations((s) => s.origins[orderId]);
  const originOf = useIntegrations((s) => s.originOf);
  useEffect(() => {
    void originOf(orderId);
  }, [orderId, originOf]);
  if (!origin) return null;
  return (
    <p className="pay-origin" data-testid="payment-origin" title={`Asked through ${VIA[origin.source]}`}>
      Asked by <strong>{origin.integration}</strong> · booking <strong className="mono">{origin.reference}</strong>
    </p>
  );
}
