import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { runCommand } from '../support/run-command.js';

/**
 * The official Subsonic 1.16.1 schema. It is Subsonic's file, not Melon's, so the repository does not
 * hold it (test/fixtures/subsonic/README.md says where to put a copy, or name one with
 * MELON_SUBSONIC_XSD). Without it the schema checks are skipped, and xsd.test.ts says so.
 */
export const SUBSONIC_XSD =
  process.env.MELON_SUBSONIC_XSD ??
  join(import.meta.dirname, '..', 'fixtures', 'subsonic', 'subsonic-rest-api-1.16.1.xsd');

/** Whether the schema is at hand, so the checks that need it can run. */
export const HAVE_XSD = existsSync(SUBSONIC_XSD);

/** The response attributes OpenSubsonic adds to the envelope. */
const ROOT_ATTRIBUTES = new Set(['openSubsonic', 'type', 'serverVersion']);
/** Attributes OpenSubsonic documents on songs, albums and artists (not in the 1.16.1 XSD). */
const OPEN_ATTRIBUTES = new Set([
  'played',
  'bpm',
  'comment',
  'sortName',
  'mediaType',
  'musicBrainzId',
  'isrc',
  'displayArtist',
  'displayAlbumArtist',
  'displayComposer',
  'explicitStatus',
  'isCompilation',
  'version',
  'readonly',
  'validUntil',
]);
/** OpenSubsonic's child elements of a song, album or artist. */
const OPEN_ELEMENTS = new Set([
  'genres',
  'artists',
  'albumArtists',
  'contributors',
  'moods',
  'replayGain',
  'releaseTypes',
  'recordLabels',
  'discTitles',
  'originalReleaseDate',
  'releaseDate',
  'roles',
]);
/** Elements that carry OpenSubsonic's additions. */
const CARRIERS = new Set([
  'song',
  'child',
  'entry',
  'album',
  'artist',
  'similarArtist',
  'directory',
  'playlist',
]);
/** AlbumID3 has OpenSubsonic's userRating; the 1.16.1 XSD does not. */
const ALBUM_ONLY = new Set(['userRating']);

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: false,
});
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  suppressEmptyNode: true,
  processEntities: false,
});

function nameOf(node: Node): string {
  return Object.keys(node).find((key) => key !== ':@')!;
}

function strip(nodes: Node[], parent: string | null, depth: number): Node[] {
  const kept: Node[] = [];
  for (const node of nodes) {
    const name = nameOf(node);
    if (parent !== null && CARRIERS.has(parent) && OPEN_ELEMENTS.has(name)) continue;
    const attributes = node[':@'];
    if (attributes) {
      for (const key of Object.keys(attributes)) {
        if (depth === 0 && ROOT_ATTRIBUTES.has(key)) delete attributes[key];
        if (CARRIERS.has(name) && OPEN_ATTRIBUTES.has(key)) delete attributes[key];
        if (name === 'album' && parent !== 'albumList' && ALBUM_ONLY.has(key)) delete attributes[key];
        // OpenSubsonic: the queue's current track is an id (a string), not the XSD's int.
        if (name === 'playQueue' && key === 'current') delete attributes[key];
      }
    }
    const children = node[name];
    if (Array.isArray(children)) node[name] = strip(children as Node[], name, depth + 1);
    kept.push(node);
  }
  return kept;
}

/**
 * The XML answer less OpenSubsonic's documented additions, as the 1.16.1 XSD knows it. `drop` names
 * further elements to remove (an OpenSubsonic method's own element, whose envelope is still checked).
 */
export function withoutOpenSubsonic(xml: string, drop: string[] = []): string {
  const tree = parser.parse(xml) as Node[];
  const root = tree.find((node) => nameOf(node) === 'subsonic-response')!;
  const [cleaned] = strip([root], null, 0);
  const children = cleaned!['subsonic-response'] as Node[];
  cleaned!['subsonic-response'] = children.filter((node) => !drop.includes(nameOf(node)));
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + builder.build([cleaned]);
}

/**
 * xmllint's complaints about the answer (empty when it validates against the official XSD, and when
 * the schema is not at hand: the tests that only check the schema are skipped then, see HAVE_XSD).
 */
export async function xsdErrors(xml: string, drop: string[] = []): Promise<string> {
  if (!HAVE_XSD) return '';
  const dir = await mkdtemp(join(tmpdir(), 'melon-xsd-'));
  try {
    const file = join(dir, 'answer.xml');
    await writeFile(file, withoutOpenSubsonic(xml, drop));
    const result = await runCommand('xmllint', ['--noout', '--schema', SUBSONIC_XSD, file], {});
    return result.code === 0 ? '' : result.stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
