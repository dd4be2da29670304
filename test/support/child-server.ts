import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill9: () => Promise<void>;
  /** SIGTERM (a clean shutdown); resolves to the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts the real `npm start` entry point (`tsx server/main.ts`) as a child process on 127.0.0.1
 * and a free port, configured only through MELON_* variables; resolves once it prints its address.
 */
export function startChildServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: process.env.TZ ?? 'UTC',
      MELON_HOST: '127.0.0.1',
      MELON_PORT: '0',
      MELON_RELEASES_URL: 'http://127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${text}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      // Request lines are many; keep the start of the output and the last few KB only.
      text = text.length > 64_000 ? text.slice(0, 8_000) + text.slice(-16_000) : text;
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        child,
        output: () => text,
        kill9: async () => {
          if (!gone()) child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (!gone()) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${text}`));
    });
  });
}
