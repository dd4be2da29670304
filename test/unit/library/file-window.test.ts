import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AHEAD, FileWindow, withWindow } from '../../../server/library/file-window.js';

let dir: string;
let file: string;
/** Larger than a window and than a read that goes straight to its caller's buffer. */
const data = randomBytes(3 * 1024 * 1024 + 123);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'melon-window-'));
  file = path.join(dir, 'track.bin');
  await writeFile(file, data);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('FileWindow', () => {
  it('gives the bytes at any place of the file, fewer at its end and none past it', async () => {
    await withWindow(file, async (window) => {
      expect(window.size).toBe(data.length);
      for (const at of [0, 10, 200_000, data.length - 1000, 1_000_000, 5]) {
        expect((await window.read(at, 4000)).equals(data.subarray(at, at + 4000))).toBe(true);
      }
      expect((await window.read(data.length - 10, 100)).equals(data.subarray(data.length - 10))).toBe(true);
      expect((await window.read(data.length + 5, 10)).length).toBe(0);
    });
  });

  it('answers the small pieces near the start and the end from two reads', async () => {
    const window = await FileWindow.open(file);
    try {
      for (let at = 0; at < 60_000; at += 97) await window.read(at, 40);
      for (let at = data.length - 60_000; at < data.length; at += 97) await window.read(at, 40);
      await window.read(12, 8);
      expect(window.reads).toBe(2);
    } finally {
      await window.close();
    }
  });

  it('keeps the start, the end and two more places, so a reader coming back reads nothing again', async () => {
    const window = await FileWindow.open(file);
    try {
      await window.read(data.length - 128, 3);
      await window.read(0, 10);
      await window.read(1_000_000, 10);
      await window.read(2_000_000, 10);
      expect(window.reads).toBe(4);
      expect(
        (await window.read(data.length - 100_000, 10)).equals(
          data.subarray(data.length - 100_000, data.length - 99_990),
        ),
      ).toBe(true);
      expect((await window.read(20, 10)).equals(data.subarray(20, 30))).toBe(true);
      expect(window.reads).toBe(4);
    } finally {
      await window.close();
    }
  });

  it('reads on through the file in pieces twice as large as the window it goes on from', async () => {
    const window = await FileWindow.open(file);
    try {
      await window.read(0, 10);
      const step = DEFAULT_AHEAD;
      // Pages read one after the other across the window's end.
      for (let at = step - 5_000; at < 3 * step - 10_000; at += 5_000) {
        expect((await window.read(at, 4_000)).equals(data.subarray(at, at + 4_000))).toBe(true);
      }
      expect(window.reads).toBe(2);
    } finally {
      await window.close();
    }
  });

  it('reads the rest of the file at once where little is left after a miss', async () => {
    const window = await FileWindow.open(file);
    try {
      await window.read(data.length - 128, 3);
      // A box of the last 200,000 bytes read piece by piece, beginning before the end window.
      for (let at = data.length - 200_000; at < data.length - 1_000; at += 30_000) {
        expect((await window.read(at, 1_000)).equals(data.subarray(at, at + 1_000))).toBe(true);
      }
      const whole = await window.read(data.length - 200_000, 190_000);
      expect(whole.equals(data.subarray(data.length - 200_000, data.length - 10_000))).toBe(true);
      expect(window.reads).toBe(2);
    } finally {
      await window.close();
    }
  });

  it('copies a large piece into the caller buffer whole', async () => {
    await withWindow(file, async (window) => {
      const target = new Uint8Array(2 * 1024 * 1024);
      expect(await window.copy(target, 1000, target.length)).toBe(target.length);
      expect(Buffer.from(target).equals(data.subarray(1000, 1000 + target.length))).toBe(true);
      const tail = new Uint8Array(2 * 1024 * 1024);
      expect(await window.copy(tail, data.length - 1024 * 1024, tail.length)).toBe(1024 * 1024);
    });
  });

  it("gives its buffers to the next file's window once closed, and not before", async () => {
    const first = await FileWindow.open(file);
    const head = await first.read(0, 10);
    const second = await FileWindow.open(file);
    expect((await second.read(500_000, 10)).buffer).not.toBe(head.buffer);
    await second.close();
    await first.close();
    const third = await FileWindow.open(file);
    const reused = await third.read(0, 10);
    expect(reused.buffer).toBe(head.buffer);
    expect(reused.equals(data.subarray(0, 10))).toBe(true);
    await third.close();
  });

  it('leaves a handle it was given open for its owner', async () => {
    const handle = await open(file, 'r');
    try {
      await withWindow(handle, (window) => window.read(0, 10));
      const { bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
      expect(bytesRead).toBe(4);
    } finally {
      await handle.close();
    }
  });
});
