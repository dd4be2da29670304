import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Sits between Melon and the fake release server so a test can hold an installer download half
 * way: the progress bar is then seen mid-download without depending on timing. Every other
 * request passes through; addresses of the release server in its answers are rewritten to this
 * proxy's, so the downloads come here too.
 */
export class GatedProxy {
  private gate: { reached: () => void; open: Promise<void> } | null = null;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<GatedProxy> {
    let self: GatedProxy | null = null;
    const server = createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new GatedProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, target);
    return self;
  }

  /**
   * Holds the next installer download after half of its bytes. `reached` resolves once that half
   * was sent; the rest follows when `open()` is called.
   */
  hold(): { reached: Promise<void>; open: () => void } {
    let open!: () => void;
    let reached!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const wasReached = new Promise<void>((resolve) => (reached = resolve));
    this.gate = { reached, open: opened };
    return { reached: wasReached, open };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const upstream = await fetch(this.target + (req.url ?? '/'), {
        headers: { 'user-agent': req.headers['user-agent'] ?? 'gated-proxy' },
      });
      let body = Buffer.from(await upstream.arrayBuffer());
      const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
      const installer =
        /\/releases\/download\/[^/]+\/[^/]+$/.test(req.url ?? '') && !req.url!.endsWith('.yml');
      if (!installer) body = Buffer.from(body.toString('utf8').replaceAll(this.target, this.url));
      res.writeHead(upstream.status, { 'Content-Type': type, 'Content-Length': body.length });
      const gate = installer && upstream.ok ? this.gate : null;
      if (!gate) {
        res.end(body);
        return;
      }
      this.gate = null;
      const half = Math.floor(body.length / 2);
      res.write(body.subarray(0, half));
      gate.reached();
      await gate.open;
      res.end(body.subarray(half));
    } catch (error) {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
