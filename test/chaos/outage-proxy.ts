// A TCP proxy between the app and the sandbox that can go down: new connections are refused
// (the provider is unreachable: sales queue) and open ones are cut (calls in flight are lost).
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class OutageProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<OutageProxy> {
    const p = new OutageProxy(target);
    await p.up();
    return p;
  }

  get isUp(): boolean {
    return this.server !== null;
  }

  /** Listens again (on the same port after the first time). */
  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones. */
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  async close(): Promise<void> {
    await this.down();
  }
}
