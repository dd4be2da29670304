import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { JsonDocument, StoreFileError } from '../../../server/store/json-document.js';
import * as atomic from '../../../server/fs/atomic-file.js';

interface Doc {
  schemaVersion: number;
  items: string[];
}

const fresh = async () => join(await mkdtemp(join(tmpdir(), 'melon-doc-')), 'doc.json');

describe('JsonDocument', () => {
  it('creates the file with its schema version, owner-only', async () => {
    const path = await fresh();
    await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ schemaVersion: 1, items: [] });
  });

  it('resolves a change only once it is on disk, and keeps it across reopen', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    await doc.mutate((data) => data.items.push('a'));
    expect(JSON.parse(await readFile(path, 'utf8')).items).toEqual(['a']);
    const reopened = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    expect(reopened.data.items).toEqual(['a']);
  });

  it('drops a deleted account’s entry to disk, and writes nothing when it had none', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc & { byUser: Record<string, string[]> }>(path, {
      schemaVersion: 1,
      items: [],
      byUser: { ann: ['a'], bob: ['b'] },
    });
    const spy = vi.spyOn(atomic, 'writeFileAtomic');
    expect(await doc.dropEntry((data) => data.byUser, 'ann')).toBe(true);
    expect(JSON.parse(await readFile(path, 'utf8')).byUser).toEqual({ bob: ['b'] });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await doc.dropEntry((data) => data.byUser, 'ann')).toBe(false);
    expect(await doc.dropEntry((data) => data.byUser, 'toString')).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('groups concurrent changes into few writes, and loses none', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    const spy = vi.spyOn(atomic, 'writeFileAtomic');
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => doc.mutate((data) => data.items.push(String(i)))),
    );
    expect(JSON.parse(await readFile(path, 'utf8')).items).toHaveLength(100);
    expect(spy.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(spy.mock.calls.length).toBeLessThanOrEqual(3);
    spy.mockRestore();
  });

  it('writes nothing for changes that changed nothing, but still writes a batch one of them changed', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    const spy = vi.spyOn(atomic, 'writeFileAtomic');
    const refuse = () =>
      doc.mutate(
        () => 'refused' as const,
        (result) => result !== 'refused',
      );
    expect(await Promise.all([refuse(), refuse()])).toEqual(['refused', 'refused']);
    expect(spy).not.toHaveBeenCalled();
    const [refused, added] = await Promise.all([refuse(), doc.mutate((data) => data.items.push('a'))]);
    expect([refused, added]).toEqual(['refused', 1]);
    expect(spy).toHaveBeenCalledOnce();
    expect(JSON.parse(await readFile(path, 'utf8')).items).toEqual(['a']);
    spy.mockRestore();
  });

  it('runs a change queued while the previous write finishes (no lost wake-up)', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    // Chain changes from inside resolutions, the pattern that once left a change waiting forever.
    for (let i = 0; i < 50; i++)
      await doc
        .mutate((data) => data.items.push(String(i)))
        .then(() => doc.mutate((data) => data.items.push('x')));
    expect(doc.data.items).toHaveLength(100);
  });

  it('rejects a change that throws and keeps the others', async () => {
    const path = await fresh();
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: [] });
    const results = await Promise.allSettled([
      doc.mutate((data) => data.items.push('ok')),
      doc.mutate(() => {
        throw new Error('refused');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(JSON.parse(await readFile(path, 'utf8')).items).toEqual(['ok']);
  });

  it('rolls memory back to the disk when a write fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'melon-doc-'));
    const path = join(dir, 'doc.json');
    const doc = await JsonDocument.open<Doc>(path, { schemaVersion: 1, items: ['kept'] });
    const spy = vi.spyOn(atomic, 'writeFileAtomic').mockRejectedValueOnce(new Error('disk full'));
    await expect(doc.mutate((data) => data.items.push('lost'))).rejects.toThrow('disk full');
    expect(doc.data.items).toEqual(['kept']);
    spy.mockRestore();
    await doc.mutate((data) => data.items.push('next'));
    expect(JSON.parse(await readFile(path, 'utf8')).items).toEqual(['kept', 'next']);
  });

  it('migrates older files and refuses newer ones and corrupt ones', async () => {
    const path = await fresh();
    await writeFile(path, JSON.stringify({ schemaVersion: 1, names: ['x'] }));
    const doc = await JsonDocument.open<Doc>(
      path,
      { schemaVersion: 2, items: [] },
      {
        1: (old) => ({ items: old.names }),
      },
    );
    expect(doc.data).toEqual({ schemaVersion: 2, items: ['x'] });
    expect(JSON.parse(await readFile(path, 'utf8')).schemaVersion).toBe(2);

    await writeFile(path, JSON.stringify({ schemaVersion: 3, items: [] }));
    await expect(JsonDocument.open<Doc>(path, { schemaVersion: 2, items: [] })).rejects.toThrow(
      StoreFileError,
    );

    await writeFile(path, '{"schemaVersion": 2, "items": [');
    await expect(JsonDocument.open<Doc>(path, { schemaVersion: 2, items: [] })).rejects.toThrow(
      /not valid JSON/,
    );
    expect(await readFile(path, 'utf8')).toBe('{"schemaVersion": 2, "items": [');
  });
});
