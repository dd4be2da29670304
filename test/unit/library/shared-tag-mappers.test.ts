import { parseFile, type IAudioMetadata } from 'music-metadata';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, FORMAT_FIXTURES, FORMATS_DIR } from '../../../scripts/make-fixtures.js';
import { shareTagMappersOf } from '../../../server/library/shared-tag-mappers.js';
import { readTrackFile } from '../../../server/library/tags.js';

let root: string;
beforeAll(async () => {
  root = await ensureFixtures();
}, 60_000);

/** The tag mappers the collector of a parse of `file` held, by tag type. */
async function mappersOfParse(file: string): Promise<Record<string, unknown>> {
  let collector: unknown;
  await parseFile(file, {
    observer: ({ metadata }: { metadata: IAudioMetadata }) => {
      collector = metadata;
    },
  });
  return { ...(collector as { tagMapper: { tagMappers: Record<string, unknown> } }).tagMapper.tagMappers };
}

/** A mapper as music-metadata writes one: a class that passes its fixed tables to the one above. */
class FakeBase {
  constructor(
    readonly tagTypes: string[],
    readonly tagMap: Record<string, string>,
  ) {}
}

describe('tag mappers shared between files', () => {
  it('once a file is read, later files parse with the same tag mappers and read the same tags', async () => {
    const files = FORMAT_FIXTURES.map((f) => path.join(root, FORMATS_DIR, f.file));
    const first = await Promise.all(files.map((f) => readTrackFile(f)));
    const before = await mappersOfParse(files[0]!);
    const after = await mappersOfParse(files[1]!);
    expect(Object.keys(after).length).toBeGreaterThan(5);
    for (const [type, mapper] of Object.entries(after)) expect(mapper, type).toBe(before[type]);
    // Read again in another order: every format's tags come through the shared mappers alike.
    const again = await Promise.all([...files].reverse().map((f) => readTrackFile(f)));
    expect(again.reverse()).toEqual(first);
  });

  it('a mapper that holds anything but its tag types and table is left to be made anew', () => {
    class Plain extends FakeBase {
      constructor() {
        super(['plain'], { title: 'title' });
      }
    }
    class Stateful extends FakeBase {
      seen = 0;
      constructor() {
        super(['stateful'], { title: 'title' });
      }
    }
    const stateful = { tagMapper: { tagMappers: { plain: new Plain(), stateful: new Stateful() } } };
    expect(shareTagMappersOf(stateful)).toBe(false);
    expect(new Plain()).not.toBe(new Plain());
    expect(shareTagMappersOf({ tagMapper: {} })).toBe(false);

    const plain = new Plain();
    expect(shareTagMappersOf({ tagMapper: { tagMappers: { plain } } })).toBe(true);
    expect(new Plain()).toBe(plain);
    expect(new Plain().tagMap).toEqual({ title: 'title' });
  });
});
