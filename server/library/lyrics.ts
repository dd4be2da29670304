import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ILyricsTag } from 'music-metadata';
import { readMetadata, type AudioSource } from './tags.js';

/** One line of lyrics; `startMs` only when the lyrics are timed. */
export interface LyricsLine {
  startMs: number | null;
  text: string;
}

export interface Lyrics {
  /** Whether every line has a start time. */
  synced: boolean;
  /** ISO 639 language when the source names one, else `und`. */
  lang: string;
  /** Milliseconds to add to every start (an LRC file's `[offset:]`). */
  offsetMs: number;
  lines: LyricsLine[];
  /** Where they came from: the tags of the audio file, or the `.lrc` file beside it. */
  source: 'tag' | 'lrc';
}

/** A `.lrc` file larger than this is not lyrics. */
export const MAX_LRC_BYTES = 512 * 1024;
const TIME = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;
const OFFSET = /^\[offset:\s*([+-]?\d+)\s*\]$/i;
const TAG_LINE = /^\[[a-z]+:.*\]$/i;

/**
 * The lyrics of an audio file: its embedded lyrics (ID3 USLT/SYLT, Vorbis LYRICS, MP4 ©lyr) and a
 * `.lrc` file of the same name beside it, timed where the source is (an LRC text inside a tag
 * counts as timed). Unreadable sources are skipped: lyrics never fail a request.
 */
export async function readLyrics(file: AudioSource, lrcFile: FileHandle | null): Promise<Lyrics[]> {
  const found: Lyrics[] = [];
  try {
    const metadata = await readMetadata(file, { skipCovers: true, duration: false });
    for (const tag of metadata.common.lyrics ?? []) {
      const lang = languageOf(tag.language);
      // music-metadata leaves syncText out for plain USLT, whatever its typings say.
      const sync = (tag.syncText as ILyricsTag['syncText'] | undefined) ?? [];
      const timed = sync.filter((line) => line.timestamp !== undefined);
      if (timed.length > 0 && timed.length === sync.length)
        found.push({
          synced: true,
          lang,
          offsetMs: 0,
          lines: timed.map((line) => ({ startMs: line.timestamp!, text: line.text })),
          source: 'tag',
        });
      else if (tag.text) found.push({ ...parseLrc(tag.text), lang, source: 'tag' });
    }
  } catch {
    // An unreadable file has no lyrics to show.
  }
  const lrc = lrcFile ? await readSmallText(lrcFile) : null;
  if (lrc !== null && lrc.trim() !== '') found.push({ ...parseLrc(lrc), lang: 'und', source: 'lrc' });
  return found;
}

export function lrcPathOf(file: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}.lrc`);
}

/**
 * LRC text (`[mm:ss.xx]words`, several stamps per line allowed, `[offset:±ms]`) or plain text.
 * Timed when at least one line carries a stamp; lines without one are then dropped.
 */
export function parseLrc(text: string): Omit<Lyrics, 'lang' | 'source'> {
  let offsetMs = 0;
  const timed: LyricsLine[] = [];
  const plain: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trimEnd();
    const offset = OFFSET.exec(line.trim());
    if (offset) {
      offsetMs = Number(offset[1]);
      continue;
    }
    const stamps = [...line.matchAll(TIME)];
    if (stamps.length > 0) {
      const words = line.replace(TIME, '').trim();
      for (const stamp of stamps) {
        const fraction = stamp[3] ?? '0';
        const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
        timed.push({ startMs: (Number(stamp[1]) * 60 + Number(stamp[2])) * 1000 + ms, text: words });
      }
      continue;
    }
    if (TAG_LINE.test(line.trim())) continue;
    plain.push(line);
  }
  if (timed.length > 0)
    return { synced: true, offsetMs, lines: timed.sort((a, b) => a.startMs! - b.startMs!) };
  while (plain.length > 0 && plain[plain.length - 1] === '') plain.pop();
  return { synced: false, offsetMs: 0, lines: plain.map((text) => ({ startMs: null, text })) };
}

function languageOf(language: string | undefined): string {
  return language && /^[a-z]{2,3}$/i.test(language) && language.toLowerCase() !== 'xxx'
    ? language.toLowerCase()
    : 'und';
}

/**
 * The text of the `.lrc` file the caller opened and checked, or null when it is not a regular file,
 * is too large, or cannot be read.
 */
async function readSmallText(handle: FileHandle): Promise<string | null> {
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_LRC_BYTES) return null;
    return (await handle.readFile()).toString('utf8');
  } catch {
    return null;
  }
}
