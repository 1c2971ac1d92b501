// The floor of the counter's network paths, measured in the same run on the same machine (issue 28):
// a bare loopback HTTP POST of a webhook's size answered with a small JSON body, node:http at the
// server and fetch at the client, nothing else (no signature, no database). Every path that crosses
// loopback HTTP (the webhook's push, the box office's charge, its callback) pays at least this; the
// targets of webhook detection and the integration read "<= k x this floor".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile, round } from './bench-stats';

export interface LoopbackFloor {
  p50: number;
  p95: number;
}

export async function loopbackPostFloor(n: number, warmup = 20): Promise<LoopbackFloor> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"code":"00000","n":${body.length}}`),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`;
  const out: number[] = [];
  try {
    for (let i = 0; i < warmup + n; i++) {
      const body = JSON.stringify({ n: i, pad: 'x'.repeat(600) }); // about a webhook's size
      const t0 = performance.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.text();
      if (i >= warmup) out.push(performance.now() - t0);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  return { p50: round(percentile(out, 50), 2), p95: round(percentile(out, 95), 2) };
}
