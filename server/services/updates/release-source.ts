import semver from 'semver';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import { AppError, badRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** One downloadable file of a release, as the release source lists it. */
export interface ReleaseAsset {
  name: string;
  url: string;
  size: number | null;
}

/** A release, reduced to what the update service and the installers need. */
export interface Release {
  /** Semantic version without the leading `v`. */
  version: string;
  tag: string;
  notes: string;
  prerelease: boolean;
  assets: ReleaseAsset[];
}

export type UpdateChannel = 'stable' | 'prerelease';

export interface ReleaseSourceOptions {
  /** API base, e.g. `https://api.github.com` (no trailing slash needed). */
  releasesUrl: string;
  /** `owner/repo`. */
  repo: string;
  /** Sent as a bearer token when set (private repositories, higher rate limits). Never logged. */
  token?: string | undefined;
  channel: UpdateChannel;
  /** How long one answer may take; 10 s by default. Tests shorten it instead of waiting. */
  timeoutMs?: number;
  /** How long an answer is reused; a day by default. */
  cacheMs?: number;
  /** How long a failure is reused before the source is asked again; an hour by default. */
  failureCacheMs?: number;
  /** Identifies the client; GitHub rejects API requests without one. */
  userAgent?: string;
}

export const RELEASE_TIMEOUT_MS = 10_000;
export const RELEASE_CACHE_MS = 24 * 60 * 60_000;
export const RELEASE_FAILURE_CACHE_MS = 60 * 60_000;
/** An explicit "check now" still waits this long after the previous request. */
export const RELEASE_REFRESH_MS = 10 * 60_000;

/** What the source last answered, and when it asked. */
export type LastAnswer =
  { at: number; ok: true; release: Release | null } | { at: number; ok: false; error: AppError };

const assetSchema = z.object({
  name: z.string().min(1),
  browser_download_url: z.url(),
  size: z.number().int().nonnegative().optional(),
});

const releaseSchema = z.object({
  tag_name: z.string().min(1),
  body: z.string().nullish(),
  prerelease: z.boolean().optional().default(false),
  draft: z.boolean().optional().default(false),
  assets: z.array(assetSchema).optional().default([]),
});

type RawRelease = z.infer<typeof releaseSchema>;

const checkFailed = (detail: string) => badRequest('update_check_failed', detail);

/** `v1.3.0` → `1.3.0`; null when the tag is not a semantic version. */
export function versionOfTag(tag: string): string | null {
  const trimmed = tag.trim().replace(/^v/i, '');
  return semver.valid(trimmed);
}

function toRelease(raw: RawRelease, version: string): Release {
  return {
    version,
    tag: raw.tag_name,
    notes: raw.body ?? '',
    // A `1.4.0-beta.1` tag is a pre-release even when the flag was forgotten on GitHub.
    prerelease: raw.prerelease || semver.prerelease(version) !== null,
    assets: raw.assets.map((asset) => ({
      name: asset.name,
      url: asset.browser_download_url,
      size: asset.size ?? null,
    })),
  };
}

/**
 * Reads the latest release from the GitHub Releases API (or anything with its shape).
 * Every failure (unreachable, slow, non-2xx other than 404, malformed) becomes 400
 * `update_check_failed`; a 404 means the repository has no release and yields null.
 */
export class ReleaseSource {
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private readonly failureCacheMs: number;
  private cached: LastAnswer | null = null;
  /** Concurrent callers share one request, so a burst of checks costs one API call. */
  private inFlight: Promise<Release | null> | null = null;

  constructor(
    private readonly options: ReleaseSourceOptions,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.timeoutMs = options.timeoutMs ?? RELEASE_TIMEOUT_MS;
    this.cacheMs = options.cacheMs ?? RELEASE_CACHE_MS;
    this.failureCacheMs = options.failureCacheMs ?? RELEASE_FAILURE_CACHE_MS;
  }

  /** The releases page the source reads, for people (no token, no API path). */
  describe(): string {
    const base = this.options.releasesUrl.replace(/\/+$/, '');
    return base === 'https://api.github.com'
      ? `https://github.com/${this.options.repo}/releases`
      : `${base}/repos/${this.options.repo}/releases`;
  }

  /** The last answer or failure, without asking the source. */
  last(): LastAnswer | null {
    return this.cached;
  }

  /**
   * The newest release of the configured channel, or null when there is none. Answers are reused
   * for a day and failures for an hour, so an offline household is not a stream of requests and
   * warnings; `refresh` (an Admin's "check now") asks again once the last request is old enough.
   */
  async latest(options: { refresh?: boolean } = {}): Promise<Release | null> {
    const cached = this.cached;
    if (cached) {
      const age = this.clock.now() - cached.at;
      const keep = options.refresh ? RELEASE_REFRESH_MS : cached.ok ? this.cacheMs : this.failureCacheMs;
      if (age < keep) {
        if (cached.ok) return cached.release;
        throw cached.error;
      }
    }
    if (!this.inFlight) {
      this.inFlight = this.fetchLatest()
        .then(
          (release) => {
            this.cached = { at: this.clock.now(), ok: true, release };
            return release;
          },
          (error: unknown) => {
            const failure = error instanceof AppError ? error : checkFailed('Could not check for updates.');
            this.cached = { at: this.clock.now(), ok: false, error: failure };
            throw failure;
          },
        )
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }

  private async fetchLatest(): Promise<Release | null> {
    if (this.options.channel === 'prerelease') return this.highestOfList(true);
    const raw = await this.getJson('/releases/latest');
    if (raw === null) return null;
    const parsed = releaseSchema.safeParse(raw);
    if (!parsed.success) throw this.malformed('/releases/latest', parsed.error.message);
    const version = versionOfTag(parsed.data.tag_name);
    if (version === null) throw this.malformed('/releases/latest', 'tag_name is not a semantic version');
    const release = toRelease(parsed.data, version);
    // GitHub's "latest" is never a pre-release, but a look-alike source might answer one:
    // fall back to the highest stable release in the list rather than offer a beta to a stable user.
    if (release.prerelease || parsed.data.draft) return this.highestOfList(false);
    return release;
  }

  private async highestOfList(includePrereleases: boolean): Promise<Release | null> {
    const raw = await this.getJson('/releases?per_page=50');
    if (raw === null) return null;
    const parsed = z.array(z.unknown()).safeParse(raw);
    if (!parsed.success) throw this.malformed('/releases', 'expected a list of releases');
    let best: Release | null = null;
    for (const item of parsed.data) {
      // One odd entry (a draft, a non-semver tag) must not hide the good ones next to it.
      const entry = releaseSchema.safeParse(item);
      if (!entry.success || entry.data.draft) continue;
      const version = versionOfTag(entry.data.tag_name);
      if (version === null) continue;
      const release = toRelease(entry.data, version);
      if (release.prerelease && !includePrereleases) continue;
      if (!best || semver.gt(release.version, best.version)) best = release;
    }
    return best;
  }

  /** GET `{releasesUrl}/repos/{repo}{path}` as JSON; null on 404. */
  private async getJson(path: string): Promise<unknown> {
    const base = this.options.releasesUrl.replace(/\/+$/, '');
    const url = `${base}/repos/${this.options.repo}${path}`;
    const headers: Record<string, string> = {
      Accept: 'application/vnd.github+json',
      'User-Agent': this.options.userAgent ?? 'Melon-update-check',
      'X-GitHub-Api-Version': '2022-11-28',
    };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    try {
      // The signal covers the body too, so a source that sends headers and then stalls still times out.
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(this.timeoutMs) });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw this.failure(url, `the release source answered ${response.status}`);
      }
      const text = await response.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw this.malformed(url, 'the answer is not JSON');
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw this.failure(
        url,
        timedOut
          ? `the release source did not answer within ${this.timeoutMs / 1000} s`
          : 'the release source is not reachable',
        error,
      );
    }
  }

  private malformed(url: string, reason: string): AppError {
    return this.failure(url, `the release source answered something unexpected (${reason})`);
  }

  private failure(url: string, detail: string, cause?: unknown): AppError {
    // The URL is built from configuration only; the token travels in a header and is never in it.
    this.logger.warn('update check failed', {
      url,
      detail,
      cause: cause instanceof Error ? cause.message : undefined,
    });
    return checkFailed(`Could not check for updates: ${detail}.`);
  }
}
