import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEncoder } from '../../../server/library/transcoder.js';
import { statedDuration } from '../../support/audio.js';

const run = promisify(execFile);

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'melon-transcoder-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('startEncoder', () => {
  it('reads an M4A whose index (moov) comes after its audio from the opened descriptor', async () => {
    const m4a = join(work, 'index-at-end.m4a');
    // The mp4 muxer writes moov last unless asked for +faststart: reading it needs a seek back.
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=20'],
      ...['-c:a', 'aac', '-f', 'mp4', m4a],
    ]);
    const bytes = await readFile(m4a);
    expect(bytes.indexOf('moov')).toBeGreaterThan(bytes.indexOf('mdat'));
    // Through a pipe (stdin) ffmpeg cannot seek back to the audio, which is why it gets the descriptor.
    const piped = spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], { input: bytes });
    expect(piped.stderr.toString()).toMatch(/partial file|Invalid data/);
    const handle = await open(m4a, 'r');
    let exited!: () => void;
    const exit = new Promise<void>((resolve) => (exited = resolve));
    const output = await startEncoder({
      command: 'ffmpeg',
      input: handle,
      format: 'mp3',
      kbps: 128,
      onExit: exited,
    });
    // ffmpeg holds its own copy of the descriptor: the server's may close at once.
    await handle.close();
    const chunks: Buffer[] = [];
    for await (const chunk of output) chunks.push(chunk as Buffer);
    const mp3 = join(work, 'out.mp3');
    await writeFile(mp3, Buffer.concat(chunks));
    expect(Math.abs((await statedDuration(mp3)) - 20)).toBeLessThan(0.2);
    await exit;
  }, 60_000);
});
