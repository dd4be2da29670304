import path from 'node:path';
import type { Readable } from 'node:stream';
import type { TrackRecord } from '../../domain/library.js';
import { AppError, invalidParameter } from '../../errors.js';
import { audioContentType } from '../../library/audio-file.js';
import type { OpenedTrackFile } from '../../library/track-file.js';
import {
  ENCODINGS,
  TRANSCODE_FORMATS,
  ffmpegWorks,
  startEncoder,
  type TranscodeFormat,
} from '../../library/transcoder.js';
import type { Logger } from '../../logger.js';
import { Slots, type Slot } from './slots.js';

export { TRANSCODE_FORMATS, type TranscodeFormat };

/** Bit rates (kbps) used when a format is asked for without `maxBitRate`, and the most each takes. */
export const DEFAULT_KBPS: Record<TranscodeFormat, number> = { mp3: 192, opus: 128, aac: 192 };
export const MAX_KBPS: Record<TranscodeFormat, number> = { mp3: 320, opus: 256, aac: 320 };
/** The lowest `maxBitRate` a transcode can honour (MP3 at 44.1 kHz cannot go lower). */
export const MIN_KBPS = 32;
/** What a refused transcode (503 `busy`) tells the client to wait, in seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/**
 * The longest a transcode waits for the slot of an encoder that is stopping (slots.ts): its
 * SIGKILL comes after the transcoder's one-second grace, and a busy machine takes a while more.
 */
const STOPPING_WAIT_MS = 3_000;

/** What a client asks of a stream: a format and/or a ceiling on the bit rate (kbps; 0 = none). */
export interface StreamOptions {
  format?: TranscodeFormat | undefined;
  maxBitRate?: number | undefined;
  /**
   * Where a transcode starts, in seconds from the track's start (a player seeks a transcode by asking
   * for it again from there). An original ignores it: it is sought with byte ranges.
   */
  timeOffset?: number | undefined;
}

/** A track's own file, as it is on disk now. */
export interface OriginalAudio {
  kind: 'original';
  track: TrackRecord;
  size: number;
  mtimeMs: number;
  /** Strong validator: changes whenever the file's size, time or inode does. */
  etag: string;
  contentType: string;
  /** The file's own name, for downloads. */
  fileName: string;
}

/** A transcode to be started with `encode`. */
export interface TranscodedAudio {
  kind: 'transcode';
  track: TrackRecord;
  format: TranscodeFormat;
  /** The bit rate of the stream, container included: never more than the client's maxBitRate. */
  kbps: number;
  /** What the encoder is asked for, so that the stream with its framing stays within `kbps`. */
  encoderKbps: number;
  contentType: string;
  /** Seconds into the track where the encode starts (0: the start). */
  offsetSeconds: number;
}

export interface StreamServiceOptions {
  /** The ffmpeg program (MELON_FFMPEG or `ffmpeg` on the PATH). */
  ffmpeg: string;
  /** Encoders that may run at once (MELON_MAX_TRANSCODES); one account runs at most half of them. */
  maxTranscodes: number;
  /** An encode whose output nobody read this long is ended and its slot freed. */
  transcodeIdleMs?: number;
  logger: Logger;
}

/**
 * The library's view the stream service needs: a track by id (404 `track_not_found`), and its file
 * opened and checked (404 `track_file_not_found`).
 */
export interface TrackSource {
  track(id: string): TrackRecord;
  openTrackFile(track: TrackRecord): Promise<OpenedTrackFile>;
}

/**
 * Playback of the library's audio: the original file (whole, or a range of it) or a transcode made
 * by ffmpeg while it is sent. Protocol-neutral: the native API (http/audio-reply.ts) and a Subsonic
 * adapter decide the same way by calling `plan`, then `read` or `encode`.
 */
export class StreamService {
  private readonly slots: Slots;
  private readonly ffmpegFound: Promise<boolean>;

  constructor(
    private readonly library: TrackSource,
    private readonly options: StreamServiceOptions,
  ) {
    this.slots = new Slots(options.maxTranscodes);
    // Looked for once, at start; a server without ffmpeg sends originals.
    this.ffmpegFound = ffmpegWorks(options.ffmpeg).then((found) => {
      if (!found)
        options.logger.warn('ffmpeg not found: transcoding is off, streams send the original files', {
          ffmpeg: options.ffmpeg,
        });
      return found;
    });
  }

  /** Whether transcoding requests are honoured (ffmpeg ran at start). */
  transcoding(): Promise<boolean> {
    return this.ffmpegFound;
  }

  /** Encoders running now. */
  get activeTranscodes(): number {
    return this.slots.inUse;
  }

  /** The track's file as it is now; 404 `track_file_not_found` when it is gone or not the track's. */
  async original(trackId: string): Promise<OriginalAudio> {
    const track = this.library.track(trackId);
    const file = await this.library.openTrackFile(track);
    const info = file.stat;
    await file.handle.close();
    return {
      kind: 'original',
      track,
      size: info.size,
      mtimeMs: info.mtimeMs,
      etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}-${info.ino.toString(16)}"`,
      contentType: audioContentType(track.format, track.path),
      fileName: path.basename(track.path),
    };
  }

  /**
   * What to send for a stream request: the original when nothing is asked, when it already fits
   * (same format, average bit rate within `maxBitRate`), or when there is no ffmpeg; otherwise a
   * transcode (format: the asked one, else the original's when ffmpeg can make it, else MP3).
   */
  async plan(trackId: string, options: StreamOptions = {}): Promise<OriginalAudio | TranscodedAudio> {
    const original = await this.original(trackId);
    const offsetSeconds = checkedOffset(original.track, options.timeOffset);
    const limit = options.maxBitRate && options.maxBitRate > 0 ? options.maxBitRate : null;
    if (!options.format && limit === null) return original;
    const own = original.track.format.toLowerCase();
    const format = options.format ?? (isTranscodeFormat(own) ? own : 'mp3');
    const fits = format === own && (limit === null || averageKbps(original) <= limit);
    if (fits || !(await this.ffmpegFound)) return original;
    const kbps = Math.max(MIN_KBPS, Math.min(limit ?? DEFAULT_KBPS[format], MAX_KBPS[format]));
    return {
      kind: 'transcode',
      track: original.track,
      format,
      kbps,
      encoderKbps: encoderKbps(format, kbps),
      contentType: ENCODINGS[format].contentType,
      offsetSeconds,
    };
  }

  /**
   * The original's bytes, whole or `start`–`end` (inclusive), read from disk as they are sent, in
   * 64 KiB chunks as the client takes them. The file is opened and checked again: what is sent is
   * always the file the scan indexed, whatever happened to its name since `original`.
   */
  async read(audio: OriginalAudio, range?: { start: number; end: number }): Promise<Readable> {
    const file = await this.library.openTrackFile(audio.track);
    // The stream closes the handle when it ends or is destroyed.
    return file.handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: 64 * 1024 });
  }

  /**
   * Starts the encoder and resolves with its output once the first bytes are made. Refused with
   * 503 `busy` (and Retry-After) when MELON_MAX_TRANSCODES encoders run already, or the account's
   * share of them, after waiting up to STOPPING_WAIT_MS when one of those is stopping. Destroying the
   * stream stops the encoder; its slot is free once the process has exited.
   */
  async encode(audio: TranscodedAudio, account: string): Promise<Readable> {
    const taken = await this.slots.take(account, STOPPING_WAIT_MS);
    if (typeof taken !== 'string') return this.run(audio, taken);
    const detail =
      taken === 'account_busy'
        ? `This account runs ${this.slots.perAccount} transcodes already, the most one account may; try again shortly`
        : `${this.slots.size} transcodes are running, the most this server runs at once; try again shortly`;
    throw new AppError('busy', detail, {}, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }

  private async run(audio: TranscodedAudio, slot: Slot): Promise<Readable> {
    const release = slot.release;
    let file: OpenedTrackFile | undefined;
    try {
      file = await this.library.openTrackFile(audio.track);
      return await startEncoder({
        command: this.options.ffmpeg,
        input: file.handle,
        format: audio.format,
        kbps: audio.encoderKbps,
        offsetSeconds: audio.offsetSeconds,
        onExit: release,
        onStopping: slot.stopping,
        idleTimeoutMs: this.options.transcodeIdleMs,
      });
    } catch (error) {
      // A process that never started (a refused file, a spawn error) has no exit to release the slot.
      release();
      throw error;
    } finally {
      // ffmpeg holds its own copy of the descriptor.
      await file?.handle.close();
    }
  }
}

/** MP3's bit rates (MPEG-1 layer III); LAME rounds others to the nearest, which may be higher. */
const MP3_KBPS = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/**
 * The encoder's bit rate for a stream of `kbps`. MP3 frames carry their own headers, so a standard
 * rate at or below it is exact. Ogg pages (Opus) and ADTS headers (AAC) add 2–3 % on top of the
 * codec's rate, and the encoders overshoot a little: they are asked for 6 % less.
 */
export function encoderKbps(format: TranscodeFormat, kbps: number): number {
  if (format === 'mp3') return MP3_KBPS.filter((rate) => rate <= kbps).at(-1) ?? MIN_KBPS;
  return Math.floor(kbps * 0.94);
}

/**
 * The start offset within the track: 0 when none is asked; past the track's end (when its length is
 * known) it is refused, whether or not the answer is a transcode, so a bad request never depends on
 * the format the server picks.
 */
function checkedOffset(track: TrackRecord, seconds: number | undefined): number {
  if (seconds === undefined) return 0;
  const length = track.durationMs / 1000;
  if (track.durationMs > 0 && seconds > length)
    throw invalidParameter('timeOffset', `timeOffset is past the end of the track (${length} s)`);
  return seconds;
}

function isTranscodeFormat(value: string): value is TranscodeFormat {
  return (TRANSCODE_FORMATS as readonly string[]).includes(value);
}

/** The file's average bit rate in kbps (tags and pictures included, so never an underestimate). */
function averageKbps(audio: OriginalAudio): number {
  const ms = audio.track.durationMs;
  return ms > 0 ? (audio.size * 8) / ms : Number.POSITIVE_INFINITY;
}
