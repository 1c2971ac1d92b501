// A tiny box office that charges its bookings at a CounterPay counter, built from
// docs/integration.md alone: one web page (index.html) to pick seats, and this server, which
// holds the key, asks CounterPay for the charge by booking reference and takes CounterPay's
// signed callbacks; POST /book-basket asks in the lines form (a ticket type per seat, concessions).
// Run: npx tsx examples/box-office/server.ts [--port 8090]
// The key and CounterPay's address are typed into the page once (Setup), as a box office's
// administrator would; they stay in this server's memory.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chargeLink,
  createCounterPayClient,
  CounterPayError,
  readCallback,
  type ChargeLinesRequest,
  type ChargeView,
  type CounterPayClient,
} from '../../integrations/client';

interface Booking {
  reference: string;
  seats: string[];
  state: string;
  message?: string;
  payNo?: string;
  /** The last callback sequence recorded (a repeated or older one is ignored). */
  seen: number;
  /** A basket's total as the counter priced it (kobo). */
  totalKobo?: number;
}

const SHOW = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-12-24',
  showTime: '19:30',
  priceKobo: 250_000,
  bookingFeeKobo: 20_000,
};

export async function startBoxOffice(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const page = readFileSync(join(__dirname, 'index.html'), 'utf8');
  const bookings = new Map<string, Booking>();
  let counter: { client: CounterPayClient; key: string } | null = null;
  let next = 1;

  const read = (req: IncomingMessage) =>
    new Promise<string>((ok) => {
      let s = '';
      req.on('data', (c: Buffer) => (s += c.toString('utf8')));
      req.on('end', () => ok(s));
    });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const apply = (b: Booking, c: ChargeView) => {
    b.state = c.state;
    if (c.payNo) b.payNo = c.payNo;
    // Queued: waiting for the terminal (another order is on it) or the network; the reason says which.
    if (c.state === 'queued' && c.reason) b.message = c.reason;
    else if (c.latePayment) {
      // The charge closed, then the bank took the money after all: issue the tickets, never charge again.
      b.payNo = c.latePayment.payNo ?? b.payNo;
      b.message = `Paid after closing${c.latePayment.payNo ? `: payment number ${c.latePayment.payNo}` : ''}. Issue the tickets; do not charge again.`;
    } else delete b.message;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://box-office');
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      } else if (req.method === 'POST' && url.pathname === '/setup') {
        const { counterPayUrl, key } = JSON.parse(await read(req)) as { counterPayUrl: string; key: string };
        counter = { client: createCounterPayClient({ baseUrl: counterPayUrl, key }), key };
        json(res, 200, { ok: true });
      } else if (req.method === 'POST' && url.pathname === '/book') {
        if (!counter) return json(res, 409, { message: 'Set up CounterPay first.' });
        const { seats } = JSON.parse(await read(req)) as { seats: string[] };
        const b: Booking = {
          reference: `BO-${Date.now().toString(36).toUpperCase()}-${next++}`,
          seats,
          state: 'asking',
          seen: 0,
        };
        bookings.set(b.reference, b);
        try {
          // Safe to repeat: the same reference never makes a second charge.
          const { charge } = await counter.client.charge({
            reference: b.reference,
            amountKobo: seats.length * SHOW.priceKobo + SHOW.bookingFeeKobo,
            sale: { ...SHOW, seats: seats.join(','), tickets: seats.length },
          });
          apply(b, charge);
        } catch (e) {
          b.state = 'refused';
          b.message =
            e instanceof CounterPayError
              ? `${e.message}${e.fields ? ` ${Object.values(e.fields).join('; ')}` : ''}`
              : String(e);
        }
        json(res, 200, b);
      } else if (req.method === 'POST' && url.pathname === '/book-basket') {
        // The lines form: a show of the counter's programme, a ticket type per seat, concessions by
        // catalogue code; the counter prices them and charges the whole by card.
        if (!counter) return json(res, 409, { message: 'Set up CounterPay first.' });
        const order = JSON.parse(await read(req)) as Omit<ChargeLinesRequest, 'reference'>;
        const b: Booking = {
          reference: `BO-${Date.now().toString(36).toUpperCase()}-${next++}`,
          seats: order.tickets?.seats.map((s) => s.seat) ?? [],
          state: 'asking',
          seen: 0,
        };
        bookings.set(b.reference, b);
        try {
          const { charge } = await counter.client.charge({ ...order, reference: b.reference });
          apply(b, charge);
          b.totalKobo = charge.basket?.amounts.totalKobo ?? charge.amountKobo;
        } catch (e) {
          b.state = 'refused';
          b.message =
            e instanceof CounterPayError
              ? `${e.message}${
                  e.fields
                    ? ` ${Object.entries(e.fields)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join('; ')}`
                    : ''
                }`
              : String(e);
        }
        json(res, 200, b);
      } else if (req.method === 'POST' && url.pathname === '/book-by-link') {
        // For a counter reached only by a link: the page opens it; the outcome comes to our callback.
        if (!counter) return json(res, 409, { message: 'Set up CounterPay first.' });
        const { seats } = JSON.parse(await read(req)) as { seats: string[] };
        const b: Booking = {
          reference: `BO-${Date.now().toString(36).toUpperCase()}-${next++}`,
          seats,
          state: 'asking',
          seen: 0,
        };
        bookings.set(b.reference, b);
        const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
        const link = chargeLink(
          counter.key,
          {
            reference: b.reference,
            amountKobo: seats.length * SHOW.priceKobo + SHOW.bookingFeeKobo,
            sale: { ...SHOW, seats: seats.join(','), tickets: seats.length },
          },
          `${origin}/counterpay/callback`,
        );
        json(res, 200, { ...b, link });
      } else if (req.method === 'GET' && url.pathname.startsWith('/bookings/')) {
        const b = bookings.get(decodeURIComponent(url.pathname.slice('/bookings/'.length)));
        return b ? json(res, 200, b) : json(res, 404, { message: 'no such booking' });
      } else if (req.method === 'POST' && url.pathname === '/counterpay/callback') {
        const raw = await read(req);
        const cb = counter ? readCallback(counter.key, req.headers, raw) : null;
        if (!cb || !cb.ok) return json(res, 401, { message: 'not signed by our CounterPay key' });
        const b = bookings.get(cb.body.charge.reference);
        if (b && cb.body.event.sequence > b.seen) {
          b.seen = cb.body.event.sequence;
          apply(b, cb.body.charge);
        }
        json(res, 200, { ok: true });
      } else {
        json(res, 404, { message: 'not found' });
      }
    })().catch((e: unknown) => json(res, 500, { message: String(e) }));
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

if (require.main === module) {
  const i = process.argv.indexOf('--port');
  void startBoxOffice(i > 0 ? Number(process.argv[i + 1]) : 8090).then((b) =>
    console.log(`Box office at ${b.url} — its callback URL is ${b.url}/counterpay/callback`),
  );
}
