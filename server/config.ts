import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { folderOverlap } from './folder-overlap.js';

export const DEFAULT_PORT = 14524;
export const DEFAULT_RELEASES_REPO = 'melon-music/melon';

/** The running version, from package.json, so CurrentVersion always matches what was built. */
export const APP_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const home = homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Melon');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Melon');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Melon');
}

/** `7d`, `12h`, `30m`, `45s` or plain seconds. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (!match) return null;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(match[1]) * unit;
  return seconds > 0 ? seconds : null;
}

const nonEmpty = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value;

/** A number written with digits only: `Number()` alone would also take `0x10`, `1e3` or ` `. */
const wholeNumber = (value: unknown) =>
  typeof value === 'string' ? (/^\d+$/.test(value.trim()) ? Number(value) : Number.NaN) : value;

const hostName =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The validated configuration; `Config` is inferred from it, so the two cannot disagree. */
const schema = z.object({
  dataDir: z.string().min(1),
  port: z.preprocess(wholeNumber, z.number().int().min(0).max(65535)),
  host: z.string().refine((host) => isIP(host) !== 0 || hostName.test(host)),
  libraryDirs: z.array(z.string().min(1)),
  adminUser: z
    .string()
    .min(1)
    .max(64)
    .refine((name) => name === name.trim() && !/\p{Cc}/u.test(name)),
  adminPassword: z.string().min(8).max(256).nullable(),
  tokenTtlSeconds: z.number().int().positive(),
  releasesUrl: z.url({ protocol: /^https?$/ }),
  releasesRepo: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  /** Where members' plays are forwarded unless they name another service. */
  listenBrainzUrl: z.url({ protocol: /^https?$/ }),
  updateChannel: z.enum(['stable', 'prerelease']),
  updateCheck: z.enum(['daily', 'off']),
  installCommand: z.string().min(1).nullable(),
  githubToken: z.string().min(1).nullable(),
  ffmpegPath: z.string().min(1),
  maxTranscodes: z.preprocess(wholeNumber, z.number().int().min(1).max(64)),
  version: z.string().min(1),
  allowedHosts: z.array(z.string().regex(hostName)),
  rescanMinutes: z.preprocess(wholeNumber, z.number().int().min(1).max(1440)),
  /** A transcode whose output nobody read this long is ended (tests shorten it). */
  transcodeIdleMs: z.number().int().min(1),
  /** The first wait after a failed forwarding send; it doubles with each failure (tests shorten it). */
  forwardRetryMs: z.number().int().min(1),
});

/** Everything the server reads from its environment, validated once at start (README, Configuration). */
export type Config = z.infer<typeof schema>;

interface Setting {
  /** Where the value comes from, as the person configuring Melon knows it. */
  source: string;
  /** The allowed values, said to that person. */
  rule: string;
  /** Never echo the value (a password or token). */
  secret?: boolean;
}

/** How each field is named and explained in messages: by its variable, never by the field name. */
const SETTINGS: Record<keyof Config, Setting> = {
  dataDir: { source: 'MELON_DATA_DIR', rule: 'must be a folder path' },
  port: { source: 'MELON_PORT', rule: 'must be a port number 1–65535 (or 0 for any free port)' },
  host: {
    source: 'MELON_HOST',
    rule: 'must be an IP address or host name to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1',
  },
  libraryDirs: {
    source: 'MELON_LIBRARY',
    rule: `must name at least one music folder (several separated by '${delimiter}')`,
  },
  adminUser: {
    source: 'MELON_ADMIN_USER',
    rule: 'must be 1–64 characters, without surrounding spaces or control characters',
  },
  adminPassword: { source: 'MELON_ADMIN_PASSWORD', rule: 'must have 8–256 characters', secret: true },
  tokenTtlSeconds: {
    source: 'MELON_TOKEN_TTL',
    rule: 'must be a duration like 7d, 12h, 30m, 45s or a number of seconds (more than 0)',
  },
  releasesUrl: { source: 'MELON_RELEASES_URL', rule: 'must be an http:// or https:// URL' },
  releasesRepo: { source: 'MELON_RELEASES_REPO', rule: 'must look like owner/repo' },
  listenBrainzUrl: { source: 'MELON_LISTENBRAINZ_URL', rule: 'must be an http:// or https:// URL' },
  updateChannel: { source: 'MELON_UPDATE_CHANNEL', rule: 'must be stable or prerelease' },
  updateCheck: { source: 'MELON_UPDATE_CHECK', rule: 'must be daily or off' },
  installCommand: { source: 'MELON_INSTALL_COMMAND', rule: 'must be a command' },
  githubToken: { source: 'GITHUB_TOKEN', rule: 'must be a token', secret: true },
  ffmpegPath: { source: 'MELON_FFMPEG', rule: 'must be the ffmpeg program: a name on the PATH or a path' },
  maxTranscodes: {
    source: 'MELON_MAX_TRANSCODES',
    rule: 'must be a whole number 1–64 (encoders running at once)',
  },
  version: { source: 'the version in package.json', rule: 'must not be empty' },
  rescanMinutes: {
    source: 'MELON_RESCAN_MINUTES',
    rule: 'must be a whole number of minutes, 1–1440',
  },
  transcodeIdleMs: { source: 'the idle limit of transcodes', rule: 'must be a positive number of ms' },
  forwardRetryMs: {
    source: 'the first retry wait of forwarding',
    rule: 'must be a positive number of ms',
  },
  allowedHosts: {
    source: 'MELON_ALLOWED_HOSTS',
    rule: 'must be host names separated by commas, e.g. nas.lan,music.home.arpa',
  },
};

export class ConfigError extends Error {}

/** `MELON_PORT=abc: must be a port number …`, one line per invalid setting. */
function describeInvalid(field: keyof Config, value: unknown, text: string | undefined): string {
  const { source, rule, secret } = SETTINGS[field];
  // The variable's own text when it came from the environment (`forever`, not a parse result).
  const given = text ?? (Array.isArray(value) ? value.join(delimiter) : String(value));
  return secret ? `${source}: ${rule}` : `${source}=${given}: ${rule}`;
}

/**
 * MELON_LIBRARY's folders; undefined (refused) when it names none, e.g. only separators. An empty
 * list stays possible through overrides (tests and benchmarks run without a library).
 */
function musicFolders(text: string): string[] | undefined {
  const dirs = text.split(delimiter).filter((dir) => dir.trim() !== '');
  return dirs.length > 0 ? dirs.map((dir) => resolve(dir)) : undefined;
}

/** Defaults, then the environment, then explicit overrides (the desktop app and tests use those). */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
  platform: NodeJS.Platform = process.platform,
): Config {
  const library = nonEmpty(env.MELON_LIBRARY);
  const ttl = nonEmpty(env.MELON_TOKEN_TTL);
  const raw = {
    dataDir: resolve(nonEmpty(env.MELON_DATA_DIR) ?? defaultDataDir(platform, env)),
    port: nonEmpty(env.MELON_PORT) ?? DEFAULT_PORT,
    host: nonEmpty(env.MELON_HOST) ?? '0.0.0.0',
    libraryDirs: library ? musicFolders(library) : [join(homedir(), 'Music')],
    adminUser: nonEmpty(env.MELON_ADMIN_USER) ?? 'admin',
    adminPassword: nonEmpty(env.MELON_ADMIN_PASSWORD) ?? null,
    tokenTtlSeconds: ttl === undefined ? 7 * 86400 : (parseDuration(ttl) ?? undefined),
    releasesUrl: (nonEmpty(env.MELON_RELEASES_URL) ?? 'https://api.github.com').replace(/\/+$/, ''),
    releasesRepo: nonEmpty(env.MELON_RELEASES_REPO) ?? DEFAULT_RELEASES_REPO,
    listenBrainzUrl: (nonEmpty(env.MELON_LISTENBRAINZ_URL) ?? 'https://api.listenbrainz.org').replace(
      /\/+$/,
      '',
    ),
    updateChannel: nonEmpty(env.MELON_UPDATE_CHANNEL) ?? 'stable',
    updateCheck: nonEmpty(env.MELON_UPDATE_CHECK) ?? 'daily',
    installCommand: nonEmpty(env.MELON_INSTALL_COMMAND) ?? null,
    githubToken: nonEmpty(env.GITHUB_TOKEN) ?? null,
    ffmpegPath: nonEmpty(env.MELON_FFMPEG) ?? 'ffmpeg',
    maxTranscodes: nonEmpty(env.MELON_MAX_TRANSCODES) ?? 4,
    version: APP_VERSION,
    allowedHosts: (nonEmpty(env.MELON_ALLOWED_HOSTS) ?? '')
      .split(',')
      .map((name) => name.trim().replace(/\.$/, ''))
      .filter((name) => name !== ''),
    rescanMinutes: nonEmpty(env.MELON_RESCAN_MINUTES) ?? 5,
    transcodeIdleMs: 30_000,
    forwardRetryMs: 30_000,
    ...overrides,
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((issue) => issue.path[0] as keyof Config));
    const lines = [...fields].map((field) =>
      describeInvalid(field, raw[field], field in overrides ? undefined : env[SETTINGS[field].source]),
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const overlap = folderOverlap(parsed.data.dataDir, parsed.data.libraryDirs);
  if (overlap) throw new ConfigError(overlap);
  return parsed.data;
}
