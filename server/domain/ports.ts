/**
 * What the services need from storage: one small interface per store, holding only the calls some
 * service makes. The repositories under store/ implement them; unit tests give the services in-memory
 * fakes instead (test/fakes/). They live in the domain, with the records they carry, so that the
 * store depends on the domain and never on the services, and a change of storage reads as one diff
 * here.
 */
import type { CollectionKind, CollectionRecord } from './collection.js';
import type { FavouriteKind } from './favourites.js';
import type { PlayQueueRecord } from './play-queue.js';
import type { BookmarkRecord } from './bookmark.js';
import type { RadioStationRecord } from './radio-station.js';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from './library.js';
import type { RatingKind } from './rating.js';
import type { AccountRole, InviteRecord, UserRecord } from './user.js';
import type { ArtistImageKind, SingleArtKind, StoredImage } from './artwork.js';
import type { PlayLogEntry } from './play.js';
import type { ApiKeyRecord } from './api-key.js';
import type { ImportJob } from './import-job.js';
import type { Listen } from './listen.js';
import type { ForwardingError, ForwardingRecord, OutgoingListen } from './forwarding.js';
import type { RatingSummary } from '../contract/library.js';

/**
 * Accounts (users.json). Names are compared by `usernameKey`; `add` refuses a taken name and `remove`
 * the last Admin inside one write, so concurrent requests cannot get around either rule.
 */
export interface UsersStore {
  count(): number;
  list(): readonly UserRecord[];
  findById(id: string): UserRecord | undefined;
  findByUsername(username: string): UserRecord | undefined;
  /** `redeemInviteId` marks that invite redeemed in the same write; a spent one adds nothing. */
  add(user: UserRecord, redeemInviteId?: string | null): Promise<'added' | 'username_taken' | 'invite_spent'>;
  update(id: string, patch: Partial<Omit<UserRecord, 'id'>>): Promise<UserRecord | undefined>;
  remove(id: string): Promise<'removed' | 'not_found' | 'last_admin'>;
  /** Changes the role and revokes the account's tokens, unless that leaves no Admin. */
  setRole(id: string, role: AccountRole): Promise<UserRecord | 'not_found' | 'last_admin'>;
}

/** Invite codes, kept with the accounts so that redeeming one and adding its user is one write. */
export interface InvitesStore {
  activeInvites(now: number): InviteRecord[];
  findInvite(id: string): InviteRecord | undefined;
  addInvite(invite: InviteRecord, maxActive: number): Promise<'added' | 'too_many' | 'code_clash'>;
  /** Marks the active invite with this code used; exactly one caller can win a code. */
  consumeInvite(code: string, now: number): Promise<InviteRecord | undefined>;
  revokeUnredeemedInvites(now: number): Promise<number>;
  /** Every invite still kept, newest first. */
  recentInvites(): InviteRecord[];
  /** Revokes the newest invite with this code that could still make a user. */
  revokeInvite(code: string, now: number, serverTokenMs: number): Promise<InviteRecord | undefined>;
}

/** What a store keeps per account, removed with the account (UserService.delete). */
export interface AccountData {
  removeUser(userId: string): Promise<unknown>;
}

/** Per-user ratings of tracks, albums and artists (ratings.json). */
export interface RatingsStore extends AccountData {
  /** 0 removes the user's rating. */
  set(kind: RatingKind, targetId: string, userId: string, rating: number): Promise<void>;
  summary(kind: RatingKind, targetId: string, userId: string | null): RatingSummary;
  /** Every item of a kind the user rated, with the rating. */
  ratedBy(kind: RatingKind, userId: string): Array<{ id: string; rating: number }>;
  /** Every item of a kind that someone rated. */
  ratedByAnyone(kind: RatingKind): string[];
}

/** Playlists and collections (playlists.json). */
export interface CollectionsStore {
  list(kind: CollectionKind): readonly CollectionRecord[];
  find(kind: CollectionKind, id: string): CollectionRecord | undefined;
  add(kind: CollectionKind, record: CollectionRecord): Promise<void>;
  /** Applies `change` to the record inside the write queue; false when it is gone. */
  update(kind: CollectionKind, id: string, change: (record: CollectionRecord) => void): Promise<boolean>;
  /** False when it is gone. */
  remove(kind: CollectionKind, id: string): Promise<boolean>;
}

/** Each user's favourites (favourites.json): item id → when it was starred, per kind. */
export interface FavouritesStore extends AccountData {
  starredAt(userId: string, kind: FavouriteKind, id: string): number | undefined;
  list(userId: string, kind: FavouriteKind): Readonly<Record<string, number>>;
  /** Stars the items not starred yet (a starred item keeps its date); true when something changed. */
  star(
    userId: string,
    items: ReadonlyArray<{ kind: FavouriteKind; id: string }>,
    at: number,
  ): Promise<boolean>;
  unstar(userId: string, items: ReadonlyArray<{ kind: FavouriteKind; id: string }>): Promise<boolean>;
}

/** Each user's saved play queue (play-queues.json). */
export interface PlayQueuesStore extends AccountData {
  find(userId: string): PlayQueueRecord | undefined;
  /** Replaces the user's queue; an empty one removes it. */
  save(userId: string, queue: PlayQueueRecord): Promise<void>;
}

/**
 * Each member's forwarding of plays and its outbox (forwarding.json). `epoch` changes whenever the
 * member sets forwarding again: the outcome of a send begun under another epoch changes nothing.
 */
export interface ForwardingStore extends AccountData {
  find(userId: string): (Readonly<ForwardingRecord> & { epoch: number }) | undefined;
  /** Members with a token and listens waiting. */
  pending(): string[];
  /** A null token turns forwarding off and empties the outbox. */
  configure(userId: string, url: string, sealedToken: string | null): Promise<void>;
  /** Appends while forwarding is on; beyond `limit` the oldest go. Resolves to how many went. */
  enqueue(userId: string, listens: readonly OutgoingListen[], limit: number, now: number): Promise<number>;
  sent(userId: string, epoch: number, taken: number, now: number): Promise<void>;
  dropped(userId: string, epoch: number, refused: number, error: ForwardingError): Promise<void>;
  failed(userId: string, epoch: number, error: ForwardingError): Promise<void>;
}

/** Each user's bookmarks, one per track (bookmarks.json). */
export interface BookmarksStore extends AccountData {
  list(userId: string): readonly BookmarkRecord[];
  /** Adds or replaces the user's bookmark of `bookmark.trackId`, unless that would exceed `max`. */
  put(userId: string, bookmark: BookmarkRecord, max: number): Promise<'saved' | 'too_many'>;
  /** Whether there was one to remove. */
  remove(userId: string, trackId: string): Promise<boolean>;
}

/** The household's internet radio stations (radio-stations.json). */
export interface RadioStationsStore {
  list(): readonly RadioStationRecord[];
  add(station: RadioStationRecord, max: number): Promise<'added' | 'too_many'>;
  /** The station as changed, or undefined when there is none with this id. */
  update(
    id: string,
    patch: Pick<RadioStationRecord, 'name' | 'streamUrl' | 'homePageUrl'>,
  ): Promise<RadioStationRecord | undefined>;
  remove(id: string): Promise<boolean>;
}

/** The mixes each user hid (mixes.json), by mix id. */
export interface HiddenMixesStore extends AccountData {
  hidden(userId: string): readonly string[];
  /** Hides (`hidden` true) or shows again one of the user's mixes; true when something changed. */
  setHidden(userId: string, mixId: string, hidden: boolean): Promise<boolean>;
}

/** Stored artwork: artists' image lists, one image per playlist or collection, the custom default. */
export interface ArtworkStore {
  artistImages(artistId: string, kind: ArtistImageKind): readonly StoredImage[];
  single(kind: SingleArtKind, ownerId: string): StoredImage | undefined;
  defaultImage(): StoredImage | null;
  read(image: StoredImage): Promise<Buffer>;
  /** Returns the new image's position. */
  addArtistImage(artistId: string, kind: ArtistImageKind, bytes: Uint8Array, mime: string): Promise<number>;
  /** False when there is no image at `pos`; later positions move down by one. */
  removeArtistImage(artistId: string, kind: ArtistImageKind, pos: number): Promise<boolean>;
  /** `ownerId` is null for the default. */
  setSingle(
    kind: SingleArtKind | 'default',
    ownerId: string | null,
    bytes: Uint8Array,
    mime: string,
  ): Promise<void>;
  /** False when there is none. */
  removeSingle(kind: SingleArtKind | 'default', ownerId: string | null): Promise<boolean>;
}

/** The scanned library (library.json). */
export interface LibraryStore {
  index(): Readonly<LibraryIndex>;
  track(id: string): TrackRecord | undefined;
  album(id: string): AlbumRecord | undefined;
  artist(id: string): ArtistRecord | undefined;
  replace(index: LibraryIndex): Promise<void>;
  updateTrack(track: TrackRecord): Promise<void>;
}

/**
 * The append-only play log. `append` resolves once the entry is durable, and the stats index has been
 * handed it before then (the store wires the log to the index), so a read after a log sees it.
 */
export interface PlayStore {
  append(entry: PlayLogEntry): Promise<void>;
  /** Many entries in one write (an import's batch), each handed to the index as `append` does. */
  appendMany(entries: PlayLogEntry[]): Promise<void>;
}

/**
 * App passwords, kept with the accounts (users.json) so that a key is never added to a user being
 * removed, and a removed user's keys go in the same write.
 */
export interface ApiKeysStore {
  findById(id: string): UserRecord | undefined;
  apiKeysOf(userId: string): ApiKeyRecord[];
  findApiKeyByHash(hash: string): ApiKeyRecord | undefined;
  /** Checks the user exists and has fewer than `maxPerUser` keys in the same step as it adds. */
  addApiKey(key: ApiKeyRecord, maxPerUser: number): Promise<'added' | 'too_many' | 'no_user'>;
  /** False when the user has no key with that id. */
  removeApiKey(userId: string, id: string): Promise<boolean>;
  /** False (and nothing written) when the key is gone. */
  touchApiKey(id: string, at: number, client?: string | null): Promise<boolean>;
}

/** Listens that matched no library track (history/unmatched.jsonl), in the order they came. */
export interface UnmatchedListensStore {
  /** Resolves once they are durable. */
  append(listens: readonly Listen[]): Promise<void>;
  read(): AsyncGenerator<Listen>;
  /** Offers every listen to `take` in batches; those it does not take stay, in order. */
  sweep(
    take: (batch: Listen[]) => Promise<boolean[]>,
    batchSize?: number,
  ): Promise<{ taken: number; kept: number }>;
}

/** Imports of listening history (imports/): each job's record, and its upload until it is done. */
export interface ImportJobsStore {
  /** Where the kept upload of a job can be read. */
  uploadPath(id: string): string;
  /** Takes over the request's temp file, which is removed when the request ends. */
  keepUpload(id: string, tempPath: string): Promise<void>;
  removeUpload(id: string): Promise<void>;
  save(job: ImportJob): Promise<void>;
  list(): Promise<ImportJob[]>;
}

/** Every store the services are built over (createServices): the data folder's, or the tests' fakes. */
export interface ServiceStores {
  readonly users: UsersStore & InvitesStore & ApiKeysStore;
  readonly library: LibraryStore;
  readonly ratings: RatingsStore;
  readonly collections: CollectionsStore;
  readonly artwork: ArtworkStore;
  readonly favourites: FavouritesStore;
  readonly playQueues: PlayQueuesStore;
  readonly bookmarks: BookmarksStore;
  readonly radioStations: RadioStationsStore;
  readonly hiddenMixes: HiddenMixesStore;
  readonly settings: SettingsStore;
  readonly plays: PlayStore;
  readonly unmatchedListens: UnmatchedListensStore;
  readonly importJobs: ImportJobsStore;
  readonly jwtSecret: Buffer;
  /** The key app passwords are sealed with: never the JWT secret. */
  readonly appPasswordKey: Buffer;
  readonly forwarding: ForwardingStore;
  /** The key forwarding tokens are sealed with: a key of their own. */
  readonly forwardingKey: Buffer;
}

/** The household's switches an Admin sets on the settings page (settings.json). */
export interface HouseholdSettings {
  /** The Admin's switch for the daily update check; MELON_UPDATE_CHECK=off overrides it. */
  updateCheck: 'daily' | 'off';
  /** An Admin closed the welcome card of a fresh Melon. */
  welcomeDismissed: boolean;
}

export interface SettingsStore {
  get(): Readonly<HouseholdSettings>;
  set(patch: Partial<HouseholdSettings>): Promise<Readonly<HouseholdSettings>>;
}
