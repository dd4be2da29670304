import type { ArtistImageKind, SingleArtKind, StoredImage } from '../domain/artwork.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidId } from '../domain/ids.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import type { ArtworkStore } from '../domain/ports.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface ArtworkFile extends Versioned {
  artists: Record<string, { pfp: StoredImage[]; banner: StoredImage[] }>;
  playlist: Record<string, StoredImage>;
  collection: Record<string, StoredImage>;
  default: StoredImage | null;
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * Stored artwork (artwork.json plus image files under `artwork/`). File names are made here from
 * validated ids and random suffixes, never from client input. Lists change in the JSON first and
 * files are deleted after, so a crash can leave an orphan file but never a list entry without a file.
 */
export class ArtworkRepo implements ArtworkStore {
  private constructor(
    private readonly doc: JsonDocument<ArtworkFile>,
    private readonly root: string,
  ) {}

  static async open(dataDir: string): Promise<ArtworkRepo> {
    const root = join(dataDir, 'artwork');
    await mkdir(root, { recursive: true });
    const doc = await JsonDocument.open<ArtworkFile>(join(dataDir, 'artwork.json'), {
      schemaVersion: 1,
      artists: {},
      playlist: {},
      collection: {},
      default: null,
    });
    return new ArtworkRepo(doc, root);
  }

  artistImages(artistId: string, kind: ArtistImageKind): readonly StoredImage[] {
    return this.doc.data.artists[artistId]?.[kind] ?? [];
  }

  single(kind: SingleArtKind, ownerId: string): StoredImage | undefined {
    return this.doc.data[kind][ownerId];
  }

  defaultImage(): StoredImage | null {
    return this.doc.data.default;
  }

  async read(image: StoredImage): Promise<Buffer> {
    return readFile(join(this.root, image.file));
  }

  /** Appends an image to an artist's list; returns its position. */
  async addArtistImage(
    artistId: string,
    kind: ArtistImageKind,
    bytes: Uint8Array,
    mime: string,
  ): Promise<number> {
    const image = await this.writeImage(`artists/${safe(artistId)}`, kind, bytes, mime);
    return this.doc.mutate((data) => {
      const lists = (data.artists[artistId] ??= { pfp: [], banner: [] });
      lists[kind].push(image);
      return lists[kind].length - 1;
    });
  }

  /** Removes the image at `pos`; later positions move down by one. False when there is none. */
  async removeArtistImage(artistId: string, kind: ArtistImageKind, pos: number): Promise<boolean> {
    const removed = await this.doc.mutate(
      (data) => {
        const list = data.artists[artistId]?.[kind];
        if (!list || pos < 0 || pos >= list.length) return null;
        return list.splice(pos, 1)[0] ?? null;
      },
      (removed) => removed !== null,
    );
    if (!removed) return false;
    await this.deleteFile(removed);
    return true;
  }

  /** Sets the one image of a playlist or collection, or the custom default when `ownerId` is null. */
  async setSingle(
    kind: SingleArtKind | 'default',
    ownerId: string | null,
    bytes: Uint8Array,
    mime: string,
  ): Promise<void> {
    const folder = kind === 'default' ? 'default' : `${kind}s/${safe(ownerId ?? '')}`;
    const image = await this.writeImage(folder, kind, bytes, mime);
    const previous = await this.doc.mutate((data) => {
      if (kind === 'default') {
        const old = data.default;
        data.default = image;
        return old;
      }
      const old = data[kind][ownerId!];
      data[kind][ownerId!] = image;
      return old ?? null;
    });
    if (previous) await this.deleteFile(previous);
  }

  /** Removes the one image of a playlist/collection or the custom default. False when there is none. */
  async removeSingle(kind: SingleArtKind | 'default', ownerId: string | null): Promise<boolean> {
    const removed = await this.doc.mutate(
      (data) => {
        if (kind === 'default') {
          const old = data.default;
          data.default = null;
          return old;
        }
        const old = data[kind][ownerId!];
        delete data[kind][ownerId!];
        return old ?? null;
      },
      (removed) => removed !== null,
    );
    if (!removed) return false;
    await this.deleteFile(removed);
    return true;
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }

  private async writeImage(
    folder: string,
    prefix: string,
    bytes: Uint8Array,
    mime: string,
  ): Promise<StoredImage> {
    const extension = EXTENSIONS[mime];
    if (!extension) throw new Error(`unsupported artwork type ${mime}`);
    const dir = join(this.root, folder);
    await mkdir(dir, { recursive: true });
    const file = `${folder}/${prefix}-${randomBytes(8).toString('hex')}.${extension}`;
    await writeFileAtomic(join(this.root, file), bytes);
    return { file, mime, size: bytes.byteLength };
  }

  private async deleteFile(image: StoredImage): Promise<void> {
    await rm(join(this.root, image.file), { force: true });
  }
}

/** Ids reach this module validated; this guard keeps a path from ever being built from anything else. */
function safe(id: string): string {
  if (!isValidId(id)) throw new Error('artwork owner id has an invalid shape');
  return id;
}
