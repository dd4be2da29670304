import { XMLParser } from 'fast-xml-parser';
import { expect } from 'vitest';
import { postJson, type TestServer } from '../support/server.js';

/** Credentials of a Subsonic request: a password (`u` + `p`) or an API key. */
export type Credentials = { username: string; password: string } | { apiKey: string } | Record<string, never>;

export interface SubsonicBody {
  status: 'ok' | 'failed';
  version: string;
  type: string;
  serverVersion: string;
  openSubsonic: boolean;
  error?: { code: number; message: string };
  [key: string]: unknown;
}

/** Element names that are lists in the Subsonic XSD (and OpenSubsonic's additions). */
const LIST_ELEMENTS = new Set([
  'index',
  'artist',
  'album',
  'song',
  'child',
  'entry',
  'genre',
  'genres',
  'artists',
  'albumArtists',
  'playlist',
  'musicFolder',
  'openSubsonicExtensions',
  'versions',
  'folder',
  'similarArtist',
  'structuredLyrics',
  'line',
  'bookmark',
  'internetRadioStation',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  textNodeName: 'value',
  ignoreDeclaration: true,
  // Numeric character references (&#9; of a tab in an attribute) are XML, not only HTML.
  htmlEntities: true,
  // A method's own element (`<song>` of getSong) is one object; below it, these names are lists.
  isArray: (name, path, _leaf, isAttribute) =>
    !isAttribute &&
    LIST_ELEMENTS.has(name) &&
    // A bookmark holds exactly one entry (the XSD's Bookmark), not a list of them.
    !String(path).endsWith('bookmark.entry') &&
    (name === 'openSubsonicExtensions' || String(path).split('.').length > 2),
});

/** Parses an XML answer into the JSON answer's shape, every scalar as its text. */
export function parseXmlAnswer(xml: string): Record<string, unknown> {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const parsed = parser.parse(xml) as { 'subsonic-response': Record<string, unknown> };
  const root = parsed['subsonic-response'];
  expect(root.xmlns).toBe('http://subsonic.org/restapi');
  delete root.xmlns;
  return normalise(root) as Record<string, unknown>;
}

/** Scalars as strings, empty lists and absent values dropped, empty elements as `{}`. */
export function normalise(value: unknown): unknown {
  if (value === '') return {};
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (typeof value !== 'object') throw new Error(`not a JSON value: ${typeof value}`);
  if (Array.isArray(value)) return value.map(normalise);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (Array.isArray(item) && item.length === 0) continue;
    const normalised = normalise(item);
    if (normalised !== undefined) out[key] = normalised;
  }
  return out;
}

export function authParams(credentials: Credentials): Record<string, string> {
  if ('apiKey' in credentials) return { apiKey: credentials.apiKey };
  if ('username' in credentials) return { u: credentials.username, p: credentials.password };
  return {};
}

export function restUrl(t: TestServer, method: string, params: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries({ v: '1.16.1', c: 'melon-tests' }))
    if (!(key in params)) search.set(key, value);
  for (const [key, value] of Object.entries(params))
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
  return `${t.url}/rest/${method}.view?${search.toString()}`;
}

/** One request in one form; answers the parsed subsonic-response (XML parsed into the JSON shape). */
export async function subsonicOnce(
  t: TestServer,
  method: string,
  params: Record<string, string | string[]>,
  format: 'xml' | 'json',
  init: { post?: boolean } = {},
): Promise<SubsonicBody> {
  const all = { ...params, ...(format === 'json' ? { f: 'json' } : {}) };
  const url = restUrl(t, method, all);
  const [base, query] = url.split('?') as [string, string];
  const response = init.post
    ? await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: query,
      })
    : await fetch(url);
  expect(response.status, `${method}: HTTP status`).toBe(200);
  const text = await response.text();
  if (format === 'json') {
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return (JSON.parse(text) as { 'subsonic-response': SubsonicBody })['subsonic-response'];
  }
  expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
  return parseXmlAnswer(text) as SubsonicBody;
}

/**
 * Calls a method in XML and in JSON and checks both answers say the same (the XML parsed, every
 * scalar compared as text); answers the JSON one. Only for reads and for writes that are the same
 * when repeated, since the method runs twice. `compare: false` for answers that differ by design
 * (random lists): then only the envelope is compared.
 */
export async function subsonic(
  t: TestServer,
  credentials: Credentials,
  method: string,
  params: Record<string, string | string[]> = {},
  options: { compare?: boolean; post?: boolean } = {},
): Promise<SubsonicBody> {
  const all = { ...authParams(credentials), ...params };
  const xml = await subsonicOnce(t, method, all, 'xml', options);
  const json = await subsonicOnce(t, method, all, 'json', options);
  if (options.compare === false) {
    expect({ status: xml.status, error: xml.error }).toEqual(
      normalise({ status: json.status, error: json.error }),
    );
  } else {
    expect(xml, `${method}: the XML answer says what the JSON one says`).toEqual(normalise(json));
  }
  expect(json).toMatchObject({ version: '1.16.1', type: 'melon', openSubsonic: true });
  expect(typeof json.serverVersion).toBe('string');
  return json;
}

/** Like `subsonic`, with the same arguments, and expects success. */
export async function ok(...call: Parameters<typeof subsonic>): Promise<SubsonicBody> {
  const body = await subsonic(...call);
  expect(body.error, `${call[2]} failed`).toBeUndefined();
  expect(body.status).toBe('ok');
  return body;
}

/** Like `subsonic`, and expects the error code. */
/** The first album by name (with its artist's id) and its first song, as a Subsonic client finds them. */
export async function firstAlbumAndSong(
  t: TestServer,
  me: Credentials,
): Promise<{ album: { id: string; artistId: string }; track: string }> {
  const list = (await ok(t, me, 'getAlbumList2', { type: 'alphabeticalByName', size: '1' })) as unknown as {
    albumList2: { album: Array<{ id: string; artistId: string }> };
  };
  const album = list.albumList2.album[0]!;
  const songs = (await ok(t, me, 'getAlbum', { id: album.id })) as unknown as {
    album: { song: Array<{ id: string }> };
  };
  return { album, track: songs.album.song[0]!.id };
}

export async function failsWith(
  t: TestServer,
  credentials: Credentials,
  method: string,
  params: Record<string, string | string[]>,
  code: number,
): Promise<string> {
  const body = await subsonic(t, credentials, method, params);
  expect(body.status, `${method} should fail with ${code}`).toBe('failed');
  expect(body.error?.code, `${method}: ${body.error?.message}`).toBe(code);
  return body.error!.message;
}

/**
 * A fetch for the subsonic-api client that also asks for the XML form of every GET the client sends
 * in JSON, and checks that both say the same, for the methods `twin` allows (the method runs
 * twice). With `password`, it sends the password (`p`, hex-encoded) instead of the salted token the
 * client computes from a password: what players call "legacy authentication" (Melon cannot check
 * tokens: it never keeps passwords in clear).
 */
export function checkingFetch(options: {
  twin: (method: string) => boolean;
  password?: string;
  headers?: Record<string, string>;
}): typeof fetch & { xmlChecked: string[] } {
  const xmlChecked: string[] = [];
  const wrapped = async (input: string | URL | Request, given?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const init = { ...given, headers: { ...(given?.headers as Record<string, string>), ...options.headers } };
    if (init.method === 'POST' && typeof init.body === 'string') {
      const body = new URLSearchParams(init.body);
      if (options.password !== undefined) swapToken(body, options.password);
      return fetch(url, { ...init, body: body.toString() });
    }
    if (options.password !== undefined) swapToken(url.searchParams, options.password);
    const method = /\/rest\/(\w+)\.view$/.exec(url.pathname)?.[1] ?? '';
    if (options.twin(method) && url.searchParams.get('f') === 'json') {
      const xmlUrl = new URL(url);
      xmlUrl.searchParams.delete('f');
      const [json, xml] = await Promise.all([fetch(url, init), fetch(xmlUrl, init)]);
      const jsonBody = (await json.clone().json()) as { 'subsonic-response': unknown };
      expect(parseXmlAnswer(await xml.text()), `${method}: XML and JSON agree`).toEqual(
        normalise(jsonBody['subsonic-response']),
      );
      xmlChecked.push(method);
      return json;
    }
    return fetch(url, init);
  };
  const withLog: typeof fetch & { xmlChecked: string[] } = Object.assign(wrapped, { xmlChecked });
  return withLog;
}

function swapToken(params: URLSearchParams, password: string): void {
  if (!params.has('t')) return;
  params.delete('t');
  params.delete('s');
  params.set('p', `enc:${Buffer.from(password, 'utf8').toString('hex')}`);
}

/** A new API key of the account behind `token` (POST /api/users/api-keys/create). */
export async function apiKeyFor(t: TestServer, token: string, name = 'Subsonic app'): Promise<string> {
  const response = await postJson(t, '/api/users/api-keys/create', { name }, token);
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}
