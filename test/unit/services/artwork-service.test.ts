import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ArtworkService, type UploadTarget } from '../../../server/services/artwork-service.js';
import { makeLibrary, coverAt } from '../../factories/library.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

function library() {
  const index = makeLibrary({
    artists: [{ id: 'ar1' }],
    albums: [{ id: 'al1', artistIds: ['ar1'] }],
    // No file exists at their paths (/music/t1.mp3): only the fake audio files hold them.
    tracks: [{ id: 't1' }, { id: 't2' }],
  });
  index.tracks[0]!.artwork = [coverAt(0), coverAt(1)];
  return index;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

/** The uploaded body: the HTTP layer hands the service a temp file. */
let uploads: string;
let counter = 0;
beforeAll(async () => {
  uploads = await mkdtemp(join(tmpdir(), 'melon-artwork-service-'));
});
afterAll(() => rm(uploads, { recursive: true, force: true }));
async function upload(bytes: Buffer): Promise<string> {
  counter += 1;
  const file = join(uploads, `upload-${counter}`);
  await writeFile(file, bytes);
  return file;
}

let t: ReturnType<typeof newTestService<typeof ArtworkService>>;
beforeEach(() => {
  t = newTestService(ArtworkService, { library: library() });
});

describe('ArtworkService track pictures', () => {
  it('removes the picture at a position and keeps the track as its file now reads', async () => {
    expect(await t.sut.deleteTrackArt('t1', 1)).toEqual({ deleted: true, id: 't1', pos: 1 });
    expect(t.fakes.library.track('t1')!.artwork).toEqual([coverAt(0)]);
  });

  it('refuses a position past the pictures with 400 invalid_position', async () => {
    expect(await problemOf(() => t.sut.deleteTrackArt('t1', 2))).toBe('400 invalid_position');
    expect(await problemOf(() => t.sut.deleteTrackArt('t2', 0))).toBe('400 invalid_position');
    expect(t.fakes.library.track('t1')!.artwork).toHaveLength(2);
  });

  it('answers 404 track_not_found for an unknown track', async () => {
    expect(await problemOf(() => t.sut.deleteTrackArt('nope', 0))).toBe('404 track_not_found');
    expect(await problemOf(() => t.sut.trackImage('nope', 0))).toBe('404 track_not_found');
  });

  it('answers 404 track_file_not_found when the audio file is gone', async () => {
    t.fakes.audioFiles.delete(t.fakes.library.track('t1')!);
    expect(await problemOf(() => t.sut.deleteTrackArt('t1', 0))).toBe('404 track_file_not_found');
    // Reading a picture goes to the file itself, which is not on disk either.
    expect(await problemOf(() => t.sut.trackImage('t1', 0))).toBe('404 track_file_not_found');
  });

  it('serves the default image for a position past the pictures, without reading the file', async () => {
    const image = await t.sut.trackImage('t1', 2);
    expect(image.mime).toBe('image/png');
  });
});

describe('ArtworkService stored images', () => {
  it('refuses to delete an artist image position that holds none with 400 invalid_position', async () => {
    expect(await problemOf(() => t.sut.deleteArtistImage('pfp', 'ar1', 0))).toBe('400 invalid_position');
    await t.sut.upload('artist-pfp', 'ar1', await upload(PNG));
    expect(await problemOf(() => t.sut.deleteArtistImage('pfp', 'ar1', 1))).toBe('400 invalid_position');
    expect(await problemOf(() => t.sut.deleteArtistImage('banner', 'ar1', 0))).toBe('400 invalid_position');
    expect(await problemOf(() => t.sut.deleteArtistImage('pfp', 'ar1', 0))).toBe('ok');
    expect(t.fakes.artwork.artistImages('ar1', 'pfp')).toEqual([]);
  });

  it('answers 404 artist_not_found for an unknown artist', async () => {
    expect(await problemOf(() => t.sut.deleteArtistImage('pfp', 'nope', 0))).toBe('404 artist_not_found');
    expect(await problemOf(() => t.sut.upload('artist-banner', 'nope', 'never-read'))).toBe(
      '404 artist_not_found',
    );
  });

  it('answers 404 artwork_not_found when there is no custom default to delete', async () => {
    expect(await problemOf(() => t.sut.deleteDefault())).toBe('404 artwork_not_found');
    await t.sut.upload('default-art', null, await upload(PNG));
    expect(await problemOf(() => t.sut.deleteDefault())).toBe('ok');
    expect(await problemOf(() => t.sut.deleteDefault())).toBe('404 artwork_not_found');
  });

  it('answers 404 artwork_not_found for a playlist without artwork, 404 playlist_not_found for none', async () => {
    const playlist = await t.services.collections.create(
      'playlist',
      { userId: 'u1', username: 'u1', role: 'User', expiresAt: Infinity, inviteId: null },
      { name: 'Mix' },
    );
    expect(await problemOf(() => t.sut.deleteSingle('playlist', playlist.id))).toBe('404 artwork_not_found');
    expect(await problemOf(() => t.sut.deleteSingle('playlist', 'nope'))).toBe('404 playlist_not_found');
    expect(await problemOf(() => t.sut.deleteSingle('collection', playlist.id))).toBe(
      '404 collection_not_found',
    );
  });

  it('serves the uploaded custom default in place of missing pictures', async () => {
    await t.sut.upload('default-art', null, await upload(PNG));
    expect((await t.sut.trackImage('t2', 0)).bytes).toEqual(PNG);
    expect((await t.sut.artistImage('pfp', 'ar1', 0)).bytes).toEqual(PNG);
  });
});

describe('ArtworkService uploads', () => {
  it.each<[string, Buffer]>([
    ['a GIF', GIF],
    ['text named like a PNG', Buffer.from('not an image, whatever the name says')],
    ['an empty body', Buffer.alloc(0)],
  ])('refuses %s with 415 unsupported_media_type, judging by the bytes', async (_, bytes) => {
    const targets: Array<[UploadTarget, string | null]> = [
      ['default-art', null],
      ['artist-pfp', 'ar1'],
    ];
    for (const [target, owner] of targets) {
      expect(await problemOf(async () => t.sut.upload(target, owner, await upload(bytes)))).toBe(
        '415 unsupported_media_type',
      );
    }
    expect(t.fakes.artwork.defaultImage()).toBeNull();
    expect(t.fakes.artwork.artistImages('ar1', 'pfp')).toEqual([]);
  });

  it('stores a PNG, JPEG or WebP under the type its bytes show', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'), Buffer.alloc(8)]);
    expect(await t.sut.upload('artist-pfp', 'ar1', await upload(PNG))).toEqual({ id: 'ar1', pos: 0 });
    expect(await t.sut.upload('artist-pfp', 'ar1', await upload(jpeg))).toEqual({ id: 'ar1', pos: 1 });
    expect(await t.sut.upload('artist-pfp', 'ar1', await upload(webp))).toEqual({ id: 'ar1', pos: 2 });
    expect(t.fakes.artwork.artistImages('ar1', 'pfp').map((image) => image.mime)).toEqual([
      'image/png',
      'image/jpeg',
      'image/webp',
    ]);
  });
});
