/**
 * ffmpeg as the encoder of transcoded streams. Run without a shell, with an argument list; its
 * output is read from a pipe as it is made, so the first bytes reach the client long before the
 * encode ends, and a client that reads slowly holds the encoder back (the pipe fills up) instead of
 * filling the server's memory.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';

export const TRANSCODE_FORMATS = ['mp3', 'opus', 'aac'] as const;
export type TranscodeFormat = (typeof TRANSCODE_FORMATS)[number];

interface Encoding {
  codec: string;
  container: string;
  contentType: string;
  extra: readonly string[];
}

export const ENCODINGS: Record<TranscodeFormat, Encoding> = {
  // No Xing header (written before the frames it counts, never filled in on a pipe) and no ID3 tag:
  // the stream is frames only.
  mp3: {
    codec: 'libmp3lame',
    container: 'mp3',
    contentType: 'audio/mpeg',
    extra: ['-write_xing', '0', '-id3v2_version', '0'],
  },
  // Constrained VBR keeps every stretch of the stream near the asked rate.
  opus: { codec: 'libopus', container: 'ogg', contentType: 'audio/ogg', extra: ['-vbr', 'constrained'] },
  aac: { codec: 'aac', container: 'adts', contentType: 'audio/aac', extra: [] },
};

/** Whether `command` runs as ffmpeg (`ffmpeg -version` exits 0 within 10 s). Checked once at start. */
export function ffmpegWorks(command: string): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(command, ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      resolve(false);
      return;
    }
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export interface EncoderOptions {
  command: string;
  /**
   * The track's file, opened and checked (library/track-file.ts). ffmpeg gets this descriptor, never
   * a path, so it reads exactly the file that was checked. The caller may close it once this resolves
   * or rejects: the child holds its own copy.
   */
  input: FileHandle;
  format: TranscodeFormat;
  kbps: number;
  /**
   * Seconds into the input where the encode starts. Given before the input, so ffmpeg seeks in the
   * file (by its index, or by bit rate) instead of decoding and dropping everything before it.
   */
  offsetSeconds?: number;
  /** Called once the ffmpeg process has exited (the transcode slot is free again). */
  onExit: () => void;
  /** Called when the encode is being stopped before its end (SIGTERM sent; onExit follows). */
  onStopping?: () => void;
  /** Gives up when ffmpeg makes no output this long (an unreadable file). */
  firstByteTimeoutMs?: number;
  /** After SIGTERM, ffmpeg gets this long before SIGKILL. */
  killGraceMs?: number;
  /** Ends the encode when nobody read its output this long (a client holding a slot). */
  idleTimeoutMs?: number;
}

/**
 * How ffmpeg reaches the opened file: as its descriptor 3, opened again through `/dev/fd/3`, which
 * names that open file and no path, so ffmpeg can seek (an M4A whose index is at its end needs
 * that). Windows has no /dev/fd: there the file is fed through stdin, which cannot seek.
 */
function inputOf(handle: FileHandle): { arg: string; stdio: StdioOptions; viaStdin: boolean } {
  if (process.platform === 'win32') return { arg: 'pipe:0', stdio: ['pipe', 'pipe', 'pipe'], viaStdin: true };
  return { arg: '/dev/fd/3', stdio: ['ignore', 'pipe', 'pipe', handle.fd], viaStdin: false };
}

export class EncoderError extends Error {}

/** A pass-through that says each time its reader asks for more: the sign the output is being read. */
class ReadWatch extends PassThrough {
  onRead: () => void = () => undefined;

  override _read(size: number): void {
    this.onRead();
    super._read(size);
  }
}

/**
 * Starts ffmpeg on `file` and resolves with its output once the first bytes are there, so a file
 * ffmpeg cannot read is an error before any response is sent. Destroying the returned stream (the
 * client went away) stops ffmpeg at once; an encode that fails later ends the stream with an error.
 */
export function startEncoder(options: EncoderOptions): Promise<Readable> {
  const { codec, container, extra } = ENCODINGS[options.format];
  const input = inputOf(options.input);
  const args = [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...(options.offsetSeconds ? ['-ss', options.offsetSeconds.toFixed(3)] : []),
    '-i',
    input.arg,
    '-map',
    '0:a:0',
    '-vn',
    '-map_metadata',
    '-1',
    '-c:a',
    codec,
    '-b:a',
    `${options.kbps}k`,
    ...extra,
    '-f',
    container,
    'pipe:1',
  ];
  const child = spawn(options.command, args, { stdio: input.stdio });
  const stdout = child.stdout!;
  if (input.viaStdin) {
    const feed = options.input.createReadStream({ autoClose: false, start: 0 });
    feed.on('error', () => child.stdin?.destroy());
    child.stdin!.on('error', () => feed.destroy());
    feed.pipe(child.stdin!);
  }
  const output = new ReadWatch();
  let stderr = '';
  let exited = false;
  let killTimer: NodeJS.Timeout | undefined;
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    stderr = (stderr + text).slice(-2000);
  });

  const stop = () => {
    stdout.destroy();
    if (exited) return;
    options.onStopping?.();
    child.kill('SIGTERM');
    killTimer ??= setTimeout(() => {
      if (!exited) child.kill('SIGKILL');
    }, options.killGraceMs ?? 1_000);
  };
  // The client went away (Koa destroys the body) or the response ended: no encoder outlives it.
  output.once('close', stop);
  // A client that stops reading (but stays connected) would hold its slot for as long as it likes.
  const idleMs = options.idleTimeoutMs ?? 30_000;
  let idleTimer: NodeJS.Timeout | undefined;
  const watchReads = () => {
    idleTimer = setTimeout(() => {
      output.destroy(new EncoderError(`Nobody read the transcode for ${idleMs} ms`));
    }, idleMs);
    output.onRead = () => idleTimer?.refresh();
  };
  output.once('close', () => clearTimeout(idleTimer));

  return new Promise<Readable>((resolve, reject) => {
    let started = false;
    const firstByteTimer = setTimeout(() => {
      if (started) return;
      stop();
      reject(new EncoderError(`ffmpeg made no output within ${options.firstByteTimeoutMs ?? 15_000} ms`));
    }, options.firstByteTimeoutMs ?? 15_000);

    child.once('error', (error) => {
      clearTimeout(firstByteTimer);
      exited = true;
      if (!started) reject(error);
      else output.destroy(error);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      clearTimeout(firstByteTimer);
      clearTimeout(killTimer);
      options.onExit();
      if (code === 0) return;
      const error = new EncoderError(
        `ffmpeg ended with ${signal ?? `code ${String(code)}`}${stderr ? `: ${stderr.trim()}` : ''}`,
      );
      if (!started) reject(error);
      else if (!output.destroyed) output.destroy(error);
    });

    stdout.once('data', (first: Buffer) => {
      started = true;
      clearTimeout(firstByteTimer);
      watchReads();
      stdout.pause();
      output.write(first);
      stdout.pipe(output);
      resolve(output);
    });
    // An empty output (nothing to encode) still ends the stream.
    stdout.once('end', () => {
      if (started) return;
      started = true;
      clearTimeout(firstByteTimer);
      output.end();
      resolve(output);
    });
  });
}
