import { z } from 'zod';

/** electron-builder's update manifest (`latest*.yml`). */
export interface UpdateManifest {
  version: string;
  path: string | null;
  sha512: string | null;
  files: { url: string; sha512: string; size: number | null }[];
}

/** The file one installer needs: a plain file name, its base64 SHA-512 and its size. */
export interface ManifestFile {
  name: string;
  sha512: string;
  size: number | null;
}

const BASE64_SHA512 = /^[A-Za-z0-9+/]{86}==$/;

const schema = z.object({
  // YAML reads `version: 1.3` as a number; electron-builder always writes three parts, but be exact.
  version: z.union([z.string(), z.number()]).transform(String),
  path: z.string().min(1).optional(),
  sha512: z.string().regex(BASE64_SHA512).optional(),
  files: z
    .array(
      z.object({
        url: z.string().min(1),
        sha512: z.string().regex(BASE64_SHA512),
        size: z.number().int().nonnegative().optional(),
      }),
    )
    .optional()
    .default([]),
});

/** The manifest electron-builder publishes for a platform and CPU. */
export function manifestName(platform: NodeJS.Platform, arch: string): string | null {
  if (platform === 'win32') return 'latest.yml';
  if (platform === 'darwin') return 'latest-mac.yml';
  if (platform === 'linux') return arch === 'arm64' ? 'latest-linux-arm64.yml' : 'latest-linux.yml';
  return null;
}

/** The installer kind the headless launcher knows how to start on each platform. */
export function installerExtension(platform: NodeJS.Platform): string | null {
  if (platform === 'win32') return '.exe';
  if (platform === 'darwin') return '.dmg';
  if (platform === 'linux') return '.AppImage';
  return null;
}

/**
 * The manifest read. The YAML reader is loaded here, at an update's download: a large library the
 * server would otherwise hold in memory all its life for a file it reads a few times a year.
 */
export async function parseManifest(text: string): Promise<UpdateManifest> {
  const { parse: parseYaml } = await import('yaml');
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 10 });
  } catch (error) {
    throw new Error(`the update manifest is not YAML: ${error instanceof Error ? error.message : ''}`, {
      cause: error,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`the update manifest is malformed: ${parsed.error.message}`);
  const { version, path, sha512, files } = parsed.data;
  return {
    version: version.replace(/^v/i, ''),
    path: path ?? null,
    sha512: sha512 ?? null,
    files: files.map((file) => ({ url: file.url, sha512: file.sha512, size: file.size ?? null })),
  };
}

/**
 * A bare file name, safe to join onto the download folder: the manifest comes from the network,
 * so `../x`, absolute paths and separators are refused rather than normalised.
 */
export function safeFileName(url: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(url.split(/[?#]/)[0] ?? '');
  } catch {
    return null;
  }
  if (name === '' || name === '.' || name === '..') return null;
  if (/[/\\\0:]/.test(name) || name.startsWith('.')) return null;
  return name;
}

/**
 * Picks the file to install: the one with this platform's installer extension (a Linux manifest
 * also lists `.deb`/`.rpm`, a mac one the `.zip`), else the manifest's `path`, else the only file.
 */
export function pickFile(manifest: UpdateManifest, extension: string | null): ManifestFile | null {
  const candidates = manifest.files.map((file) => ({ ...file, name: safeFileName(file.url) }));
  const byExtension = extension
    ? candidates.find((file) => file.name?.toLowerCase().endsWith(extension.toLowerCase()))
    : undefined;
  const byPath = manifest.path ? candidates.find((file) => file.url === manifest.path) : undefined;
  const chosen = byExtension ?? byPath ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (chosen) return chosen.name ? { name: chosen.name, sha512: chosen.sha512, size: chosen.size } : null;
  // Old manifests carry only `path` and `sha512`.
  if (manifest.path && manifest.sha512) {
    const name = safeFileName(manifest.path);
    return name ? { name, sha512: manifest.sha512, size: null } : null;
  }
  return null;
}
