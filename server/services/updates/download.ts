import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';

export interface DownloadProgress {
  transferred: number;
  total: number;
  bytesPerSecond: number;
}

export interface DownloadOptions {
  url: string;
  destination: string;
  /** Bytes the manifest promises; the download is cut off as soon as it exceeds them. */
  expectedSize: number | null;
  userAgent: string;
  /** Abort when no byte arrives for this long. */
  stallTimeoutMs: number;
  onProgress: (progress: DownloadProgress) => void;
  now?: () => number;
}

export interface DownloadResult {
  size: number;
  /** Base64 SHA-512 of the bytes written, the encoding electron-builder's manifests use. */
  sha512: string;
}

/** Fetches a small text document (the manifest) with a hard timeout. */
export async function fetchText(url: string, userAgent: string, timeoutMs: number): Promise<string> {
  const response = await fetch(url, {
    headers: { 'User-Agent': userAgent, Accept: 'application/octet-stream, text/yaml, */*' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  return response.text();
}

/**
 * Streams `url` into `destination` while hashing it, so the file is never read twice and a huge
 * or endless answer is stopped at the promised size. On any error the partial file is removed.
 */
export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  let stallTimer: NodeJS.Timeout | undefined;
  const armStall = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(
      () => controller.abort(new Error(`no data for ${options.stallTimeoutMs} ms`)),
      options.stallTimeoutMs,
    );
  };
  const hash = createHash('sha512');
  const file = createWriteStream(options.destination, { mode: 0o600 });
  let fileError: Error | null = null;
  // Without a listener a disk error (ENOSPC) would be an uncaught 'error' event and end the server.
  file.on('error', (error) => {
    fileError = error;
    controller.abort(error);
  });
  try {
    armStall();
    const response = await fetch(options.url, {
      headers: { 'User-Agent': options.userAgent, Accept: 'application/octet-stream' },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`the download answered ${response.status}`);
    }
    const announced = Number(response.headers.get('content-length') ?? '');
    const total = options.expectedSize ?? (Number.isFinite(announced) && announced > 0 ? announced : 0);
    const started = now();
    let transferred = 0;
    let lastReport = 0;
    // Node's web streams are async-iterable; the DOM typings in tsconfig's `lib` just do not say so.
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      armStall();
      transferred += chunk.byteLength;
      if (options.expectedSize !== null && transferred > options.expectedSize) {
        throw new Error(
          `the download is larger than the ${options.expectedSize} bytes the manifest promises`,
        );
      }
      hash.update(chunk);
      if (!file.write(chunk)) await once(file, 'drain');
      const at = now();
      // At most ~10 reports a second: status polling does not need more, logging would drown.
      if (at - lastReport >= 100 || transferred === total) {
        lastReport = at;
        const seconds = (at - started) / 1000;
        options.onProgress({ transferred, total, bytesPerSecond: seconds > 0 ? transferred / seconds : 0 });
      }
    }
    clearTimeout(stallTimer);
    file.end();
    // 'close', not 'finish': the installer must not be started on a file that is still open.
    await once(file, 'close');
    // The listener may have set it meanwhile; TypeScript cannot see that and narrows it to null.
    const writeError = fileError as Error | null;
    if (writeError) throw writeError;
    return { size: transferred, sha512: hash.digest('base64') };
  } catch (error) {
    clearTimeout(stallTimer);
    controller.abort();
    file.destroy();
    // The stream opens its file asynchronously: removed before that open ends, the file would be
    // created again after, and a partial download left behind.
    if (!file.closed) await once(file, 'close').catch(() => undefined);
    await rm(options.destination, { force: true });
    throw error;
  }
}
