import type { ArtworkStore } from '../../server/domain/ports.js';
import type { ArtistImageKind, SingleArtKind, StoredImage } from '../../server/domain/artwork.js';

/** Stored artwork in memory: the lists as ArtworkRepo keeps them, the bytes in a map by file name. */
export class FakeArtworkStore implements ArtworkStore {
  readonly files = new Map<string, Buffer>();
  private readonly artists = new Map<string, Record<ArtistImageKind, StoredImage[]>>();
  private readonly singles: Record<SingleArtKind, Map<string, StoredImage>> = {
    playlist: new Map(),
    collection: new Map(),
  };
  private custom: StoredImage | null = null;
  private written = 0;

  artistImages(artistId: string, kind: ArtistImageKind): readonly StoredImage[] {
    return this.artists.get(artistId)?.[kind] ?? [];
  }

  single(kind: SingleArtKind, ownerId: string): StoredImage | undefined {
    return this.singles[kind].get(ownerId);
  }

  defaultImage(): StoredImage | null {
    return this.custom;
  }

  read(image: StoredImage): Promise<Buffer> {
    const bytes = this.files.get(image.file);
    if (!bytes) return Promise.reject(Object.assign(new Error(`no file ${image.file}`), { code: 'ENOENT' }));
    return Promise.resolve(bytes);
  }

  addArtistImage(artistId: string, kind: ArtistImageKind, bytes: Uint8Array, mime: string): Promise<number> {
    const lists = this.artists.get(artistId) ?? { pfp: [], banner: [] };
    this.artists.set(artistId, lists);
    lists[kind].push(this.write(bytes, mime));
    return Promise.resolve(lists[kind].length - 1);
  }

  removeArtistImage(artistId: string, kind: ArtistImageKind, pos: number): Promise<boolean> {
    const list = this.artists.get(artistId)?.[kind];
    if (!list || pos < 0 || pos >= list.length) return Promise.resolve(false);
    this.files.delete(list.splice(pos, 1)[0]!.file);
    return Promise.resolve(true);
  }

  setSingle(
    kind: SingleArtKind | 'default',
    ownerId: string | null,
    bytes: Uint8Array,
    mime: string,
  ): Promise<void> {
    const image = this.write(bytes, mime);
    const previous = kind === 'default' ? this.custom : this.singles[kind].get(ownerId!);
    if (kind === 'default') this.custom = image;
    else this.singles[kind].set(ownerId!, image);
    if (previous) this.files.delete(previous.file);
    return Promise.resolve();
  }

  removeSingle(kind: SingleArtKind | 'default', ownerId: string | null): Promise<boolean> {
    const previous = kind === 'default' ? this.custom : this.singles[kind].get(ownerId!);
    if (!previous) return Promise.resolve(false);
    if (kind === 'default') this.custom = null;
    else this.singles[kind].delete(ownerId!);
    this.files.delete(previous.file);
    return Promise.resolve(true);
  }

  private write(bytes: Uint8Array, mime: string): StoredImage {
    this.written += 1;
    const file = `memory/${this.written}`;
    this.files.set(file, Buffer.from(bytes));
    return { file, mime, size: bytes.byteLength };
  }
}
