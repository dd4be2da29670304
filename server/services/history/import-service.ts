import type { Clock } from '../../clock.js';
import { isoUtc } from '../../clock.js';
import { isValidId, newId } from '../../domain/ids.js';
import type { Listen } from '../../domain/listen.js';
import { accountOf, type Principal } from '../../domain/user.js';
import { conflict, messageOf, notFound, unauthorized } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ImportJobsStore } from '../../domain/ports.js';
import { queuedJob, type ImportJob, type ImportSource } from '../../domain/import-job.js';
import type { HistoryService } from './history-service.js';
import { FORMATS } from './parsers/formats.js';
import type { ReadProgress } from './parsers/streams.js';
import { planUpload, readUpload, type UploadPlan } from './upload-plan.js';

/** How many listens are matched and written together: one group commit each. */
const BATCH = 1000;
const MAX_PROBLEMS = 100;

/** The most an upload may unpack to (a ZIP's chosen entries), as the most it may be. */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

/** What the users store must answer. */
export interface UserLookup {
  findById(id: string): { id: string } | undefined;
}

/**
 * Imports of listening history (docs/API.md, Import and export). The upload is kept in the data
 * folder and read in the background as a stream, one job at a time; each batch of listens is
 * durable before the job's progress that counts it is saved, so a job cut short by a restart runs
 * again from where its saved progress says, and de-duplication makes any overlap count once.
 */
export class ImportService {
  private readonly jobs = new Map<string, ImportJob>();
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly repo: ImportJobsStore,
    private readonly history: HistoryService,
    private readonly users: UserLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Loads the saved jobs and runs again those a stop interrupted. */
  async resume(): Promise<void> {
    for (const job of await this.repo.list()) {
      this.jobs.set(job.id, job);
      if (job.status === 'queued' || job.status === 'running') this.enqueue(job);
    }
  }

  /** Starts an import of an uploaded file (its temp file is moved into the data folder first). */
  async start(
    caller: Principal,
    request: {
      userId?: string | undefined;
      source?: ImportSource | undefined;
      keepIncognito?: boolean | undefined;
      tempPath: string;
    },
  ) {
    const userId = this.memberFor(
      caller,
      request.userId,
      'Only an Admin may import history for another user',
    );
    this.requireRoomFor(userId);
    // Recognised before it is kept: a file that is no history is refused and leaves nothing.
    const plan = await planUpload(request.tempPath, request.source, IMPORT_MAX_BYTES);
    // Again: another upload of this user may have taken the place while this one was read.
    this.requireRoomFor(userId);
    const job = queuedJob({
      id: newId(),
      userId,
      startedBy: accountOf(caller),
      source: plan.source,
      takenAs: plan.takenAs,
      keepIncognito: request.keepIncognito ?? false,
      bytesRead: 0,
      bytesTotal: plan.bytes,
      createdAt: this.clock.now(),
    });
    await this.repo.keepUpload(job.id, request.tempPath);
    await this.repo.save(job);
    this.jobs.set(job.id, job);
    this.enqueue(job);
    return { id: job.id, source: plan.source, takenAs: plan.takenAs };
  }

  /**
   * At most one import per user waits behind the one that runs: imports run one at a time for the
   * whole household, and each waiting one keeps its upload (up to 1 GiB) in the data folder, so a
   * member uploading again and again would fill the disk and hold everyone else's imports back.
   */
  private requireRoomFor(userId: string): void {
    for (const job of this.jobs.values()) {
      if (job.userId === userId && job.status === 'queued')
        throw conflict(
          'import_queue_full',
          'An import of this history is already waiting to run; start the next one when it has begun',
        );
    }
  }

  /** An import's progress and report: its owner, whoever started it, and Admins may see it. */
  status(caller: Principal, id: string) {
    const job = isValidId(id) ? this.jobs.get(id) : undefined;
    const self = accountOf(caller);
    if (!job || (caller.role !== 'Admin' && job.userId !== self && job.startedBy !== self))
      throw notFound('import_not_found', `Import '${id}' not found`);
    return viewOf(job);
  }

  /**
   * The imports the caller may see, newest first (at most 50): an Admin's every import, a member's
   * own and those they started.
   */
  list(caller: Principal) {
    const self = accountOf(caller);
    // Started later first: the map holds them in the order they were started (a stable sort keeps
    // it among equal times).
    return [...this.jobs.values()]
      .reverse()
      .filter((job) => caller.role === 'Admin' || job.userId === self || job.startedBy === self)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, 50)
      .map(viewOf);
  }

  /**
   * A member's listens that matched no library track, grouped by artist and album (the caller's
   * own; an Admin's for anyone): what to add to the library.
   */
  async missing(caller: Principal, request: { userId?: string | undefined }) {
    const userId = this.memberFor(
      caller,
      request.userId,
      "Only an Admin may see another user's missing listens",
    );
    return this.history.missing(userId, 50);
  }

  /**
   * The member a request is about: the caller, or (for an Admin only; `refusal` says what others
   * may not do) the account `userId` names, which must exist.
   */
  private memberFor(caller: Principal, userId: string | undefined, refusal: string): string {
    const self = accountOf(caller);
    const member = userId ?? self;
    if (member !== self && caller.role !== 'Admin') throw unauthorized('forbidden_role', refusal);
    if (!isValidId(member) || !this.users.findById(member))
      throw notFound('user_not_found', `User '${member}' not found`);
    return member;
  }

  /** Resolves once every queued import has finished (tests, shutdown). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  /** On shutdown: the running import stops after its current batch; it resumes at the next start. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.idle();
  }

  private enqueue(job: ImportJob): void {
    this.queue = this.queue.then(() => this.run(job));
  }

  private async run(job: ImportJob): Promise<void> {
    if (this.stopped) return;
    const done = job.read;
    job.status = 'running';
    let position = 0;
    let batch: Listen[] = [];
    const progress: ReadProgress = { size: 0, read: 0 };
    // Listens recorded by this run, and the plays they added.
    let recorded = 0;
    let added = 0;
    const flush = async () => {
      const outcome = await this.history.record(batch);
      job.matched += outcome.matched;
      job.unmatched += outcome.unmatched;
      job.duplicates += outcome.duplicates;
      recorded += batch.length;
      added += outcome.matched;
      batch = [];
      job.read = position;
      job.bytesRead = progress.read;
      await this.repo.save(job);
      this.history.reserve(job.userId, playsToCome(progress, position, recorded, added));
    };
    let plan: UploadPlan | undefined;
    try {
      const path = this.repo.uploadPath(job.id);
      plan = await planUpload(path, job.source, IMPORT_MAX_BYTES);
      const options = { keepIncognito: job.keepIncognito ?? false };
      for await (const { entry, file, source } of readUpload(path, plan, progress, options)) {
        position += 1;
        // Entries a previous run already counted (its batches are durable) are passed over.
        if (position <= done) continue;
        if (entry.kind === 'listen') batch.push(new BatchListen(entry.listen, job.userId, source));
        else if (entry.kind === 'ignored') job.ignored += 1;
        else {
          job.refused += 1;
          if (job.problems.length < MAX_PROBLEMS)
            job.problems.push({ entry: position, reason: entry.reason, ...(file === null ? {} : { file }) });
        }
        if (batch.length >= BATCH) {
          await flush();
          if (this.stopped) return;
        }
      }
      await flush();
      job.bytesRead = progress.size;
      const nothing = nothingImported(job, plan);
      job.status = nothing === null ? 'done' : 'failed';
      job.error = nothing;
    } catch (error) {
      job.status = 'failed';
      job.error = messageOf(error);
      this.logger.warn('history import failed', { id: job.id, error: job.error });
    }
    this.history.settle(job.userId);
    job.finishedAt = this.clock.now();
    await this.repo.save(job).catch((error: unknown) => {
      this.logger.error('could not save an import record', { id: job.id, error: messageOf(error) });
    });
    await this.repo.removeUpload(job.id);
  }
}

/**
 * Why an import that read no listen at all failed, in words for its uploader: what the file looked
 * like and what to upload instead; null when it read any listen (a re-import's duplicates too).
 */
function nothingImported(job: ImportJob, plan: UploadPlan): string | null {
  if (job.matched + job.unmatched + job.duplicates > 0) return null;
  const format =
    plan.format !== 'zip'
      ? plan.format
      : plan.source === 'spotify'
        ? 'spotify-extended'
        : 'listenbrainz-lines';
  const upload = FORMATS[format].upload;
  const looks = `This looks like ${plan.takenAs}`;
  if (job.refused > 0) {
    const first = job.problems[0]?.reason;
    return `${looks}, but none of its ${job.refused} entries is a listen Melon can read${first ? ` (the first: ${first})` : ''}; ${upload}`;
  }
  if (job.ignored > 0)
    return `${looks}, but its ${job.ignored} entries are podcasts, audiobooks or private sessions: no music to import`;
  return `${looks}, but it holds no listens; ${upload}`;
}

/**
 * About how many plays an import will still add: the entries left in the file (its bytes left, at
 * the bytes an entry took so far) at the rate its recorded listens added plays. Room for them is
 * made at once (HistoryService.reserve), so the index grows once rather than by an eighth at a time,
 * each old copy waiting for a full collection; a re-import, adding nothing, reserves nothing.
 */
export function playsToCome(
  progress: ReadProgress,
  entries: number,
  recorded: number,
  added: number,
): number {
  if (progress.read <= 0 || recorded <= 0 || added <= 0) return 0;
  const entriesLeft = (Math.max(0, progress.size - progress.read) / progress.read) * entries;
  return Math.ceil((entriesLeft * added) / recorded);
}

/**
 * A listen of an import's batch: the parsed listen with the job's user and source. Not made as
 * `{ ...listen, userId, source }`: V8 (Node 20) gives every object made by a spread followed by
 * more properties a hidden class of its own, a map and its descriptors in the old generation
 * (~600 bytes a listen, for full collections to free). And a class rather than an object literal,
 * so that V8 does not "pretenure" it although a batch stays alive while it is written: see LogEntry
 * in stats/log-entry.ts.
 */
class BatchListen implements Listen {
  readonly at: number;
  readonly artist: string;
  readonly title: string;
  readonly album: string | null;
  readonly recordingMbid: string | null;
  readonly device: string | null;
  readonly type: 'play' | 'skip';
  readonly windowMs: number;
  readonly userId: string;
  readonly source: ImportSource;

  constructor(listen: Omit<Listen, 'userId' | 'source'>, userId: string, source: ImportSource) {
    this.at = listen.at;
    this.artist = listen.artist;
    this.title = listen.title;
    this.album = listen.album;
    this.recordingMbid = listen.recordingMbid;
    this.device = listen.device;
    this.type = listen.type;
    this.windowMs = listen.windowMs ?? 0;
    this.userId = userId;
    this.source = source;
  }
}

function viewOf(job: ImportJob) {
  return {
    id: job.id,
    userId: job.userId,
    source: job.source,
    takenAs: job.takenAs ?? null,
    status: job.status,
    done: job.status === 'done' || job.status === 'failed',
    entriesRead: job.read,
    bytesRead: job.bytesRead ?? 0,
    bytesTotal: job.bytesTotal ?? 0,
    matched: job.matched,
    unmatched: job.unmatched,
    duplicates: job.duplicates,
    refused: job.refused,
    ignored: job.ignored,
    problems: job.problems,
    error: job.error,
    createdAt: isoUtc(job.createdAt),
    finishedAt: job.finishedAt === null ? null : isoUtc(job.finishedAt),
  };
}
