import { errnoCode } from '../server/fs/errno.js';
import type { Config } from '../server/config.js';
import type { MelonServer } from '../server/create-server.js';
import type { FirstAdmin } from '../server/services/user-service.js';
import { messageOf } from '../server/errors.js';

/** What the tray and the window show about the embedded server. */
export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; url: string; addresses: string[] }
  | { kind: 'port-busy'; port: number; message: string }
  | { kind: 'failed'; message: string };

/** The running server's base URL; null when it is not running. */
export function serverUrl(state: ServerState): string | null {
  return state.kind === 'running' ? state.url : null;
}

/** The running server's origin (where the window may navigate and call IPC from); null when stopped. */
export function serverOrigin(state: ServerState): string | null {
  const url = serverUrl(state);
  return url ? new URL(url).origin : null;
}

/** The part of MelonServer the desktop app uses (tests pass a fake). */
export type EmbeddedServer = Pick<MelonServer, 'listen' | 'close' | 'firstAdmin' | 'desktop'>;

export interface LifecycleDeps {
  config: () => Config;
  create: (config: Config) => Promise<EmbeddedServer>;
  onChange?: (state: ServerState) => void;
}

export function isPortBusy(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'EADDRINUSE' || code === 'EACCES';
}

export function portBusyMessage(port: number): string {
  return (
    `Port ${port} is already in use, so Melon's server could not start. Quit the other program ` +
    `(or another copy of Melon) and choose "Retry", or set MELON_PORT to another port.`
  );
}

/**
 * Starts and stops the embedded server. A busy port is an expected state, not a crash: the store is
 * closed again and the tray offers a retry. Stop is idempotent and always flushes the store.
 */
export class ServerLifecycle {
  private current: EmbeddedServer | null = null;
  private stateValue: ServerState = { kind: 'stopped' };
  private firstAdminValue: FirstAdmin | null = null;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: LifecycleDeps) {}

  get state(): ServerState {
    return this.stateValue;
  }

  get server(): EmbeddedServer | null {
    return this.current;
  }

  /** The generated first-Admin password; handed out once, then forgotten. */
  takeFirstAdmin(): FirstAdmin | null {
    const value = this.firstAdminValue;
    this.firstAdminValue = null;
    return value;
  }

  start(): Promise<ServerState> {
    return this.serialize(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.serialize(() => this.doStop());
  }

  restart(): Promise<ServerState> {
    return this.serialize(async () => {
      await this.doStop();
      return this.doStart();
    });
  }

  /** Start, stop and restart never overlap: a restart clicked twice runs twice, in order. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.pending.then(task, task);
    this.pending = run.catch(() => undefined);
    return run;
  }

  private async doStart(): Promise<ServerState> {
    if (this.current) return this.stateValue;
    this.set({ kind: 'starting' });
    let config: Config;
    let server: EmbeddedServer;
    try {
      config = this.deps.config();
      server = await this.deps.create(config);
    } catch (error) {
      return this.set({ kind: 'failed', message: messageOf(error) });
    }
    // The first Admin is made (and stored) when the server is created, before it listens: keep
    // the generated password even if the port is busy, or it would never be shown.
    if (server.firstAdmin?.generatedPassword) this.firstAdminValue = server.firstAdmin;
    try {
      const url = await server.listen();
      this.current = server;
      return this.set({ kind: 'running', url, addresses: server.desktop.addresses() });
    } catch (error) {
      // The store is open; close it so a retry (or another process) can open it.
      await server.close().catch(() => undefined);
      if (isPortBusy(error)) {
        return this.set({ kind: 'port-busy', port: config.port, message: portBusyMessage(config.port) });
      }
      return this.set({ kind: 'failed', message: messageOf(error) });
    }
  }

  private async doStop(): Promise<void> {
    const server = this.current;
    this.current = null;
    if (server) await server.close();
    this.set({ kind: 'stopped' });
  }

  private set(state: ServerState): ServerState {
    this.stateValue = state;
    this.deps.onChange?.(state);
    return state;
  }
}
