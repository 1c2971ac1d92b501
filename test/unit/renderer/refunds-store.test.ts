// The order detail's after-sale store against a stand-in for main: the engine's field messages land
// at the form's fields (a path such as `approval.pin` at the approval, a concession line at the pick),
// a refusal without a field is one sentence; a cancel done shows its refunds and closes the panel;
// `refunds.changed` reads the open sale's refunds again; recording a card refund returned updates it.
import { afterEach, describe, expect, it } from 'vitest';
import type { RefundView } from '../../../shared/refunds';
import { AppError } from '../../../shared/errors';
import { followStores, type Following } from '../../../renderer/src/stores/follow';
import { refundsFollower, undoFieldOf, useRefunds } from '../../../renderer/src/stores/refunds-store';
import { useOrders } from '../../../renderer/src/stores/orders-store';
import { connectBridge } from '../../../renderer/src/transport/bridge';
import { PAID_ORDER } from '../records/receipt-fixtures';
import { fakeMain } from './fake-main';

const T0 = 1_763_900_000_000;
const REFUND: RefundView = {
  id: 3,
  refundNo: 'R0003',
  orderId: PAID_ORDER.id,
  outOrderNo: PAID_ORDER.outOrderNo,
  kind: 'cancel',
  tender: 'card',
  amountKobo: 260_000,
  seats: ['F8'],
  lines: [],
  reason: 'customer-request',
  note: '',
  approved: { how: 'pin', by: 'Admin PIN', at: T0 },
  cashier: 'Ngozi',
  at: T0,
  shiftId: 1,
  returned: null,
  exchangeOrderId: null,
  demo: false,
};
const NO_LINKS = { exchangedFrom: null, exchangedTo: [], cancelledSeats: [] };
const REQUEST = {
  orderId: PAID_ORDER.id,
  seats: ['F8'],
  reason: 'customer-request' as const,
  note: '',
  approval: { pin: '1111' },
  cashier: 'Ngozi',
};

let following: Following | null = null;
afterEach(() => {
  following?.stop();
  following = null;
  connectBridge(null);
  useRefunds.setState(useRefunds.getInitialState(), true);
  useOrders.setState(useOrders.getInitialState(), true);
});

function start(main: ReturnType<typeof fakeMain>) {
  connectBridge(main.bridge);
  following = followStores(main.bridge, [refundsFollower]);
}

describe('undoFieldOf', () => {
  it('puts each engine path at its form field', () => {
    expect(undoFieldOf('approval.pin')).toBe('approval');
    expect(undoFieldOf('approval')).toBe('approval');
    expect(undoFieldOf('concessions[0].quantity')).toBe('seats');
    expect(undoFieldOf('seats.1')).toBe('seats');
    expect(undoFieldOf('to.seats.0.seat')).toBe('toSeats');
    expect(undoFieldOf('to.seats')).toBe('toSeats');
    expect(undoFieldOf('to.showDate')).toBe('to');
    expect(undoFieldOf('reference')).toBe('reference');
    expect(undoFieldOf('orderId')).toBeNull();
  });
});

describe('refunds store', () => {
  it('a refused cancel shows the engine’s messages at their fields, the panel stays open', async () => {
    const main = fakeMain({
      'refunds.cancel': () => {
        throw new AppError('VALIDATION', 'Check the cancel: some fields need fixing', {
          fields: { 'approval.pin': 'Wrong admin PIN', reason: 'Choose a reason from the list' },
        });
      },
      'refunds.ofOrder': () => ({ refunds: [], links: NO_LINKS }),
    });
    start(main);
    await useRefunds.getState().load(PAID_ORDER.id);
    useRefunds.getState().openPanel('cancel');
    expect(await useRefunds.getState().cancel(REQUEST)).toBe(false);
    const s = useRefunds.getState();
    expect(s.errors).toEqual({ approval: 'Wrong admin PIN', reason: 'Choose a reason from the list' });
    expect(s.panel).toBe('cancel');
    expect(s.busy).toBeNull();
    s.clearError('approval');
    expect(useRefunds.getState().errors).toEqual({ reason: 'Choose a reason from the list' });
  });

  it('a refused approval (a wrong PIN, a code without a Hub) is the approval field’s', async () => {
    const main = fakeMain({
      'refunds.cancel': () => {
        throw new AppError('PIN_WRONG', 'That PIN is not right. 4 tries left before a pause.');
      },
    });
    start(main);
    expect(await useRefunds.getState().cancel(REQUEST)).toBe(false);
    expect(useRefunds.getState().errors).toEqual({ approval: 'That PIN is not right. 4 tries left before a pause.' });
    expect(useRefunds.getState().message).toBeNull();
    main.answer('refunds.cancel', () => {
      throw new AppError('NOT_READY', 'Approval codes need the Hub; use the admin PIN');
    });
    expect(await useRefunds.getState().cancel({ ...REQUEST, approval: { code: 'ABCD-2345' } })).toBe(false);
    expect(useRefunds.getState().errors).toEqual({ approval: 'Approval codes need the Hub; use the admin PIN' });
    main.answer('refunds.cancel', () => {
      throw new AppError('HUB_REFUSED', 'This approval code was already used.');
    });
    expect(await useRefunds.getState().cancel({ ...REQUEST, approval: { code: 'ABCD-2345' } })).toBe(false);
    expect(useRefunds.getState().errors).toEqual({ approval: 'This approval code was already used.' });
  });

  it('a refusal with no field is one sentence', async () => {
    start(
      fakeMain({
        'refunds.cancel': () => {
          throw new AppError('CONFLICT', 'Seat F8 was already cancelled.');
        },
      }),
    );
    expect(await useRefunds.getState().cancel(REQUEST)).toBe(false);
    expect(useRefunds.getState().message).toBe('Seat F8 was already cancelled.');
    expect(useRefunds.getState().errors).toEqual({});
  });

  it('a cancel done: its refunds in the answer, the panel closed, the sale’s refunds read again; then recorded returned', async () => {
    let refunds: RefundView[] = [];
    const main = fakeMain({
      'refunds.cancel': () => {
        refunds = [REFUND];
        return { order: PAID_ORDER, refunds };
      },
      'refunds.ofOrder': () => ({ refunds, links: { ...NO_LINKS, cancelledSeats: ['F8'] } }),
      'refunds.markReturned': (a) => {
        refunds = [{ ...REFUND, returned: { how: a.how, reference: a.reference, by: a.by, at: T0 + 1 } }];
        return refunds[0]!;
      },
    });
    start(main);
    await useRefunds.getState().load(PAID_ORDER.id);
    useRefunds.getState().openPanel('cancel');
    expect(await useRefunds.getState().cancel(REQUEST)).toBe(true);
    let s = useRefunds.getState();
    expect(s.panel).toBeNull();
    expect(s.answer).toEqual({ kind: 'cancel', refunds: [REFUND], to: null });
    expect(s.refunds).toEqual([REFUND]);
    expect(s.links?.cancelledSeats).toEqual(['F8']);

    useRefunds.getState().openReturned(REFUND.id);
    expect(await useRefunds.getState().markReturned(REFUND.id, 'bank-transfer', 'TRF-1', 'Ngozi')).toBe(true);
    s = useRefunds.getState();
    expect(s.returning).toBeNull();
    expect(s.refunds[0]?.returned).toMatchObject({ how: 'bank-transfer', reference: 'TRF-1' });
    expect(s.answer?.refunds[0]?.returned).toMatchObject({ how: 'bank-transfer' });
  });

  it('refunds.changed reads the open sale’s refunds again (another door recorded one)', async () => {
    const main = fakeMain({ 'refunds.ofOrder': () => ({ refunds: [], links: NO_LINKS }) });
    start(main);
    useOrders.setState({ openId: PAID_ORDER.id });
    await useRefunds.getState().load(PAID_ORDER.id);
    expect(useRefunds.getState().refunds).toEqual([]);
    const asked = () => main.calls.filter((c) => c.name === 'refunds.ofOrder').map((c) => c.args);
    expect(asked()).toEqual([{ orderId: PAID_ORDER.id }]);
    main.emit('refunds.changed', { owed: 1, items: [REFUND] });
    expect(asked()).toEqual([{ orderId: PAID_ORDER.id }, { orderId: PAID_ORDER.id }]);
    // Another sale open: its refunds are not this one's, nothing is read.
    useOrders.setState({ openId: 999 });
    main.emit('refunds.changed', { owed: 1, items: [REFUND] });
    expect(asked()).toHaveLength(2);
  });
});
