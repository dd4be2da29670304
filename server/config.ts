import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Everything the server reads from its environment, validated once at start (contract §9). */
export interface Config {
  dataDir: string;
  port: number;
  host: string;
  libraryDirs: string[];
  adminUser: string;
  adminPassword: string | null;
  tokenTtlSeconds: number;
  releasesUrl: string;
  releasesRepo: string;
  updateChannel: 'stable' | 'prerelease';
  installCommand: string | null;
  githubToken: string | null;
  version: string;
}

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

const schema = z.object({
  dataDir: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string().min(1),
  libraryDirs: z.array(z.string().min(1)),
  adminUser: z.string().min(1).max(64),
  adminPassword: z
    .string()
    .min(8, 'MELON_ADMIN_PASSWORD must have at least 8 characters')
    .max(256)
    .nullable(),
  tokenTtlSeconds: z
    .number({ message: 'MELON_TOKEN_TTL must look like 7d, 12h, 30m or 3600' })
    .int()
    .positive(),
  releasesUrl: z.url({ message: 'MELON_RELEASES_URL must be an http(s) URL' }),
  releasesRepo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'MELON_RELEASES_REPO must look like owner/repo'),
  updateChannel: z.enum(['stable', 'prerelease']),
  installCommand: z.string().min(1).nullable(),
  githubToken: z.string().min(1).nullable(),
  version: z.string().min(1),
});

export class ConfigError extends Error {}

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
    libraryDirs: library
      ? library
          .split(delimiter)
          .filter((dir) => dir.trim() !== '')
          .map((dir) => resolve(dir))
      : [join(homedir(), 'Music')],
    adminUser: nonEmpty(env.MELON_ADMIN_USER) ?? 'admin',
    adminPassword: nonEmpty(env.MELON_ADMIN_PASSWORD) ?? null,
    tokenTtlSeconds: ttl === undefined ? 7 * 86400 : (parseDuration(ttl) ?? undefined),
    releasesUrl: (nonEmpty(env.MELON_RELEASES_URL) ?? 'https://api.github.com').replace(/\/+$/, ''),
    releasesRepo: nonEmpty(env.MELON_RELEASES_REPO) ?? DEFAULT_RELEASES_REPO,
    updateChannel: nonEmpty(env.MELON_UPDATE_CHANNEL) ?? 'stable',
    installCommand: nonEmpty(env.MELON_INSTALL_COMMAND) ?? null,
    githubToken: nonEmpty(env.GITHUB_TOKEN) ?? null,
    version: APP_VERSION,
    ...overrides,
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${messages.join('; ')}`);
  }
  return parsed.data;
}
