// The POS client as the checkout uses it: every call's outcome is reported to the provider status
// (a working sale or query turns it online at once; a refusal of our keys or clock turns it to
// "refusing" at once), then passed on unchanged. Bills calls are not reported: that API has no
// timestamps, so a top-up going through says nothing about the payment API.
import type { PosClient } from './types';

export type Report = (err: unknown) => void;

function observe<T>(p: Promise<T>, report: Report): Promise<T> {
  return p.then(
    (v) => {
      report(null);
      return v;
    },
    (e: unknown) => {
      report(e);
      throw e;
    },
  );
}

export function observedPos(pos: PosClient, report: Report): PosClient {
  return {
    createOrder: (i) => observe(pos.createOrder(i), report),
    queryOrder: (by) => observe(pos.queryOrder(by), report),
    depositCallbackStatus: (by) => observe(pos.depositCallbackStatus(by), report),
  };
}
