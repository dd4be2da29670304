import { readFile } from 'node:fs/promises';
import type {
  DeletedArtwork,
  DeletedDefaultArtwork,
  DeletedPicture,
  UploadedArtwork,
} from '../contract/artwork.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { errnoCode } from '../fs/errno.js';
import { sniffImage } from '../library/image-info.js';
import type { TrackRecord } from '../domain/library.js';
import { PictureEditError } from '../library/picture-editor.js';
import { readPicture } from '../library/tags.js';
import type { TrackFiles } from '../library/track-files.js';
import type { ArtistImageKind, SingleArtKind, StoredImage } from '../domain/artwork.js';
import type { CollectionService } from './collection-service.js';
import { etagOf, type CachedImage, type ImageCache } from './image-cache.js';
import type { LibraryService } from './library-service.js';
import type { ArtworkStore } from '../domain/ports.js';

/** An image to serve: its sniffed type, and its bytes in memory or in a file to stream. */
export type Image = CachedImage & { mime: string };

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);
const BUILT_IN_DEFAULT = new URL('../assets/default-art.png', import.meta.url);

const invalidPosition = (detail: string) => badRequest('invalid_position', detail, { parameter: 'pos' });

/**
 * Artwork (docs/API.md, Artwork): pictures embedded in audio files, and stored images of artists,
 * playlists, collections and the custom default.
 */
export class ArtworkService {
  /** The built-in default image, read and hashed once. */
  private builtIn: Promise<Image> | undefined;

  constructor(
    private readonly artwork: ArtworkStore,
    private readonly library: LibraryService,
    private readonly collections: CollectionService,
    private readonly trackFiles: TrackFiles,
    private readonly images: ImageCache,
  ) {}

  // --- deletion ----------------------------------------------------------------------------------

  async deleteTrackArt(trackId: string, pos: number): Promise<DeletedPicture> {
    const track = this.library.track(trackId);
    await this.library.replaceTrack(await this.removeTrackPicture(track, pos));
    return { deleted: true, id: trackId, pos };
  }

  private async removeTrackPicture(track: TrackRecord, pos: number): Promise<TrackRecord> {
    try {
      return await this.trackFiles.removePicture(track, pos);
    } catch (error) {
      if (error instanceof PictureEditError) {
        if (error.reason === 'position_out_of_range')
          throw invalidPosition(`The track has no picture at position ${pos}`);
        if (error.reason === 'unsupported_format')
          throw badRequest('unsupported_format', 'Pictures of this audio format cannot be edited');
        throw conflict('file_not_writable', 'The audio file could not be rewritten; it was left unchanged');
      }
      if (errnoCode(error) === 'ENOENT') {
        throw notFound('track_file_not_found', 'The audio file of this track is missing on disk');
      }
      throw error;
    }
  }

  async deleteArtistImage(kind: ArtistImageKind, artistId: string, pos: number): Promise<DeletedPicture> {
    this.library.requireArtist(artistId);
    const count = this.artwork.artistImages(artistId, kind).length;
    if (pos >= count)
      throw invalidPosition(
        `The artist has no ${kind === 'pfp' ? 'profile picture' : 'banner'} at position ${pos}`,
      );
    if (!(await this.artwork.removeArtistImage(artistId, kind, pos)))
      throw invalidPosition(`No image at position ${pos}`);
    return { deleted: true, id: artistId, pos };
  }

  async deleteSingle(kind: SingleArtKind, ownerId: string): Promise<DeletedArtwork> {
    this.collections.require(kind, ownerId);
    if (!(await this.artwork.removeSingle(kind, ownerId))) {
      throw notFound('artwork_not_found', `This ${kind} has no artwork`);
    }
    return { deleted: true, id: ownerId };
  }

  async deleteDefault(): Promise<DeletedDefaultArtwork> {
    if (!(await this.artwork.removeSingle('default', null))) {
      throw notFound('artwork_not_found', 'There is no custom default artwork');
    }
    return { deleted: true };
  }

  // --- upload ------------------------------------------------------------------------------------

  async upload(target: UploadTarget, ownerId: string | null, tempPath: string): Promise<UploadedArtwork> {
    if (target === 'artist-pfp' || target === 'artist-banner') this.library.requireArtist(ownerId ?? '');
    else if (target === 'playlist-art') this.collections.require('playlist', ownerId ?? '');
    else if (target === 'collection-art') this.collections.require('collection', ownerId ?? '');
    const bytes = await readFile(tempPath);
    const sniffed = sniffImage(bytes);
    if (!sniffed || !ACCEPTED.has(sniffed.mime)) {
      throw new AppError('unsupported_media_type', 'Artwork must be a JPEG, PNG or WebP image');
    }
    switch (target) {
      case 'artist-pfp':
      case 'artist-banner': {
        const kind = target === 'artist-pfp' ? 'pfp' : 'banner';
        return { id: ownerId, pos: await this.artwork.addArtistImage(ownerId!, kind, bytes, sniffed.mime) };
      }
      case 'playlist-art':
      case 'collection-art':
        await this.artwork.setSingle(
          target === 'playlist-art' ? 'playlist' : 'collection',
          ownerId,
          bytes,
          sniffed.mime,
        );
        return { id: ownerId, pos: 0 };
      case 'default-art':
        await this.artwork.setSingle('default', null, bytes, sniffed.mime);
        return { id: null, pos: 0 };
    }
  }

  // --- fetch -------------------------------------------------------------------------------------

  async trackImage(trackId: string, pos: number): Promise<Image> {
    const track = this.library.track(trackId);
    if (pos >= track.artwork.length) return this.defaultImage();
    const file = await this.library.openTrackFile(track);
    let picture: CachedImage | null;
    try {
      // Keyed by the opened file itself: a file swapped in under the same name never hits the entry.
      const { dev, ino, mtimeMs, size } = file.stat;
      const key = `track\0${dev}:${ino}\0${mtimeMs}\0${size}\0${pos}`;
      picture = await this.images.get(key, () => readPicture(file, pos));
    } finally {
      await file.handle.close();
    }
    if (!picture) return this.defaultImage();
    // Never the type the tag declares: a "picture" of text/html or image/svg+xml runs script.
    if (!isImage(picture))
      throw notFound(
        'artwork_not_found',
        `The picture at position ${pos} is not a JPEG, PNG, GIF, WebP, AVIF or BMP image`,
      );
    return picture;
  }

  async artistImage(kind: ArtistImageKind, artistId: string, pos: number): Promise<Image> {
    this.library.requireArtist(artistId);
    const stored = this.artwork.artistImages(artistId, kind)[pos];
    return stored ? this.storedImage(stored) : this.defaultImage();
  }

  async singleImage(kind: SingleArtKind, ownerId: string): Promise<Image> {
    this.collections.require(kind, ownerId);
    const stored = this.artwork.single(kind, ownerId);
    return stored ? this.storedImage(stored) : this.defaultImage();
  }

  /** Whether an Admin uploaded a default artwork (else the built-in one is used; it cannot be deleted). */
  hasCustomDefault(): boolean {
    return this.artwork.defaultImage() !== null;
  }

  async defaultImage(): Promise<Image> {
    const custom = this.artwork.defaultImage();
    if (custom) return this.storedImage(custom);
    this.builtIn ??= readFile(BUILT_IN_DEFAULT).then((bytes) => inMemory(bytes, 'image/png'));
    return this.builtIn;
  }

  /** Removes the cache's spill folder (the server is stopping). */
  close(): Promise<void> {
    return this.images.close();
  }

  /**
   * A stored image (sniffed when uploaded), through the same cache as track pictures. Its file is
   * never rewritten (a new upload gets a new name), so the name is its key.
   */
  private async storedImage(stored: StoredImage): Promise<Image> {
    const image = await this.images.get(`stored\0${stored.file}`, async () => ({
      mime: stored.mime,
      data: await this.artwork.read(stored),
    }));
    if (!image || !isImage(image)) throw new Error(`Stored image ${stored.file} is not an image`);
    return image;
  }
}

export type UploadTarget = 'artist-pfp' | 'artist-banner' | 'playlist-art' | 'collection-art' | 'default-art';

const isImage = (image: CachedImage): image is Image => image.mime !== null;

function inMemory(bytes: Buffer, mime: string): Image {
  return { mime, etag: etagOf(bytes), size: bytes.length, bytes, file: null };
}
