// Hand-written days of baskets (issue 38): kept examples of the one ledger's model-based test
// (test/integration/records/ledger-model.test.ts), replayed every run.
import type { Action } from './ledger-model';

export const BASKET_EXAMPLES: { why: string; actions: Action[] }[] = [
  {
    why: 'a day of baskets: card, cash with change, a split paid and a split failed (its cash to hand back), a drop refused above the drawer, one taken, the drawer counted short (issue 38)',
    actions: [
      { t: 'shift', demo: false, float: 5 },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: {
          seats: [0, 1, 2],
          concessions: [
            { item: 5, quantity: 2, drink: 2 },
            { item: 2, quantity: 1, drink: 0 },
          ],
          tender: 'cash',
          over: 3,
          cashPercent: 50,
        },
      },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: {
          seats: [0, 0],
          concessions: [{ item: 1, quantity: 1, drink: 0 }],
          tender: 'split',
          over: 1,
          cashPercent: 40,
        },
      },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: {
          seats: [],
          concessions: [{ item: 4, quantity: 3, drink: 0 }],
          tender: 'split',
          over: 0,
          cashPercent: 70,
        },
      },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      { t: 'settle', pick: 0, to: 'failed', providerFee: 0 },
      {
        t: 'sell',
        price: 0,
        tickets: 0,
        fee: 0,
        demo: false,
        basket: {
          seats: [2],
          concessions: [{ item: 0, quantity: 2, drink: 0 }],
          tender: 'card',
          over: 0,
          cashPercent: 1,
        },
      },
      { t: 'settle', pick: 0, to: 'paid', providerFee: 100 },
      { t: 'drop', share: 120 },
      { t: 'drop', share: 60 },
      { t: 'x' },
      { t: 'close', count: true, off: -3 },
    ],
  },
];
