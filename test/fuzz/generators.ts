/**
 * fast-check generators for hostile HTTP requests against the route table. A generated request is a
 * plain description: values that depend on the server's state at send time (real ids, the clock)
 * are references resolved by `materialize`, so the whole run can be generated up front from one seed.
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';

/** A value resolved at send time: an id from a pool, or a date relative to the server clock. */
export type Ref = { readonly $ref: PoolName; readonly i: number } | { readonly $rel: number };

export type Value = string | number | boolean | null | Ref | Value[] | { [key: string]: Value };

export type PoolName =
  | 'track'
  | 'album'
  | 'artist'
  | 'playlist'
  | 'collection'
  | 'mix'
  | 'user'
  | 'victim'
  | 'inviteCode'
  | 'username'
  | 'password';

export type Kind =
  | 'text'
  | 'username'
  | 'newUsername'
  | 'password'
  | 'role'
  | 'bool'
  | 'code'
  | 'device'
  | 'date'
  | 'logDate'
  | 'page'
  | 'count'
  | 'rating'
  | 'pos'
  | 'step'
  | 'source'
  | 'format'
  | 'year'
  | 'q'
  | 'name'
  | 'description'
  | 'trackIds'
  | 'audioFormat'
  | 'bitRate'
  | 'timeOffset'
  | 'serviceUrl'
  | 'favouriteKind'
  | `id:${PoolName}`;

export type Principal = 'admin' | 'user' | 'pass' | 'server' | 'none' | 'garbage';

export type BodyKind =
  | 'none'
  | 'json'
  | 'form'
  | 'multipart'
  | 'text'
  | 'xml'
  | 'truncated-json'
  | 'bad-json'
  | 'json-array'
  | 'json-scalar'
  | 'json-as-form'
  | 'form-as-json'
  | 'empty-json'
  | 'charset'
  | 'encoding'
  | 'deep-json'
  | 'big-json';

export type FileKind = 'png' | 'jpg' | 'webp' | 'not-image' | 'empty' | 'random' | 'none' | 'two-files';
export type MultipartFlaw = 'none' | 'truncated' | 'wrong-boundary' | 'no-boundary' | 'nameless-part';

export interface RouteSpec {
  /** Parameters by name and the kind of value they take. */
  params: Record<string, Kind>;
  /** Relative frequency (default 1): expensive routes (scrypt) are picked less often. */
  weight?: number;
}

export interface FuzzRequest {
  /** Index into the route list, or -1 for a path that is not in the table. */
  route: number;
  unknownPath: string;
  method: string;
  principal: Principal;
  garbageToken: string;
  /** Path segment values for `:id`/`:pos`. */
  pathValues: Value[];
  /** Sent raw (printable ASCII kept as is, so `%00` and `../` reach the server undecoded). */
  rawEncoding: boolean;
  pathSuffix: string;
  query: Array<[string, Value]>;
  body: Array<[string, Value]>;
  bodyKind: BodyKind;
  /** Truncation point for truncated JSON / multipart, as a fraction. */
  cut: number;
  contentTypeVariant: string;
  file: FileKind;
  fileName: string;
  flaw: MultipartFlaw;
  ifNoneMatch: boolean;
  /** Browser headers: an `Origin` (`$self` is the server's own) and `Sec-Fetch-Site`/`-Mode`. */
  origin: string | null;
  fetchSite: string | null;
}

// ---------------------------------------------------------------------------------------- values

const ref = (pool: PoolName) => fc.nat({ max: 1000 }).map((i): Ref => ({ $ref: pool, i }));

/** Strings every parameter gets now and then: empty, huge, unicode, traversal, NUL, numbers-as-text. */
const NASTY = [
  '',
  ' ',
  '\t',
  'a',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999999',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '../',
  '..',
  '.',
  '../../secret.key',
  '..\\..\\users.json',
  '/etc/passwd',
  'artwork/../../users.json',
  '%00',
  'a%00b',
  '%2e%2e%2f',
  '%2E%2E/secret.key',
  '%',
  '%E0%A4%A',
  '%C3%28',
  '%FF%FE',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'ünïcødé',
  '🎵🎶',
  '\u202eevil',
  '\ud800',
  'Ω≈ç√∫',
  '\uFEFFbom',
  'x'.repeat(64),
  'x'.repeat(65),
  'x'.repeat(128),
  'x'.repeat(129),
  'x'.repeat(256),
  'x'.repeat(257),
  'x'.repeat(1024),
  'x'.repeat(1025),
  'x'.repeat(4097),
  '9'.repeat(17),
];

/**
 * fc.string without bias: the biased path rebuilds fast-check's constant-slice tables on every draw
 * (most of the generation time here); the boundary values come from the lists above instead.
 */
const str = (constraints: fc.StringConstraints = {}) => fc.noBias(fc.string(constraints));

/** `usual`, `odds` times out of `odds + 1`; otherwise one of the `rare` values. */
function mostly<T>(odds: number, usual: T, ...rare: T[]): fc.Arbitrary<T> {
  return fc.oneof(
    { weight: odds, arbitrary: fc.constant(usual) },
    { weight: 1, arbitrary: fc.constantFrom(...rare) },
  );
}

const huge = fc.constantFrom('x'.repeat(100_000), '🎵'.repeat(30_000), 'a,'.repeat(20_000));

const anyText = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 6, arbitrary: str({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 4, arbitrary: str({ unit: 'binary', maxLength: 40 }) },
  { weight: 4, arbitrary: str({ unit: 'grapheme-ascii', minLength: 1, maxLength: 70 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 2, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: huge },
);

/** Non-string JSON values: numbers, booleans, null, arrays and objects where a string is expected. */
const jsonOddity: fc.Arbitrary<Value> = fc.oneof(
  fc.constantFrom<Value>(
    0,
    -1,
    1.5,
    1e21,
    -0,
    true,
    false,
    null,
    [],
    {},
    ['a', 'b'],
    { $ne: 1 },
    [[[]]],
    Number.MAX_SAFE_INTEGER + 2,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Value>,
);

const isoDates = [
  '2026-11-01',
  '2026-11-01T12:00:00Z',
  '2026-11-01T12:00',
  '2026-11-01 12:00:00',
  '2026-11-01T12:00:00.123456789Z',
  '2026-11-01T12:00:00+23:59',
  '2026-11-01T12:00:00-23:59',
  '2026-11-01T12:00:00+24:00',
  '2026-11-01T12:00:00+00:60',
  '2026-11-01T12:00:00+0530',
  '2026-11-01T12:00:00+05',
  '2026-11-01t12:00:00z',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+23:59',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59-23:59',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '2024-02-29',
  '2023-02-29',
  '2100-02-29',
  '2000-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-11-00',
  '2026-11-31',
  '2026-11-01T24:00:00Z',
  '2026-11-01T23:60:00Z',
  '2026-11-01T23:59:60Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '20261101',
  '2026-W44-1',
  '2026-305',
  'yesterday',
  '1730462400000',
  '2026-11-01T12:00:00Z'.repeat(4),
];

const MINUTE = 60_000;
/** Dates around the limits that depend on the clock: now, the 5-minute future tolerance, far past. */
const relativeDate = fc
  .oneof(
    fc.constantFrom(
      0,
      -1,
      1,
      5 * MINUTE - 1,
      5 * MINUTE,
      5 * MINUTE + 1,
      10 * MINUTE,
      -30 * 24 * 60 * MINUTE,
      -1000 * 24 * 60 * MINUTE,
      -1001 * 24 * 60 * MINUTE,
      365 * 24 * 60 * MINUTE,
    ),
    fc.integer({ min: -10 * 365 * 24 * 60 * MINUTE, max: 10 * MINUTE }),
  )
  .map((ms): Ref => ({ $rel: ms }));

const generatedDate = fc
  .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
  .chain((date) =>
    fc.constantFrom(
      date.toISOString(),
      date.toISOString().slice(0, 10),
      date.toISOString().slice(0, 19),
      date.toISOString().replace('Z', '+02:00'),
    ),
  );

const dateArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...isoDates) },
  { weight: 3, arbitrary: relativeDate },
  { weight: 2, arbitrary: generatedDate },
);

const intText = (bounds: number[]) =>
  fc.oneof(
    fc.constantFrom(...bounds.flatMap((n) => [String(n), String(n - 1), String(n + 1)])),
    fc.constantFrom(
      '+5',
      ' 7 ',
      '07',
      '0007',
      '1.0',
      '1.5',
      '-0',
      '1e3',
      '0x10',
      '١',
      '12abc',
      '9'.repeat(16),
    ),
    fc.integer({ min: -2_000_000, max: 2_000_000 }).map(String),
    fc.constantFrom<Value>(2 ** 31, 2 ** 53, -(2 ** 53), 0.5, 1e300),
  );

const usernameArb = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{2,15}$/),
  str({ unit: 'grapheme', minLength: 1, maxLength: 70 }),
  fc.constantFrom(
    ' padded',
    'padded ',
    'ctl\u0007char',
    'ADMIN',
    'Admin',
    'admin',
    'x'.repeat(64),
    'x'.repeat(65),
  ),
);

const valueArbitraries = new Map<Kind, fc.Arbitrary<Value>>();

function valueFor(kind: Kind): fc.Arbitrary<Value> {
  let arbitrary = valueArbitraries.get(kind);
  if (!arbitrary) valueArbitraries.set(kind, (arbitrary = makeValue(kind)));
  return arbitrary;
}

function makeValue(kind: Kind): fc.Arbitrary<Value> {
  const valid = validFor(kind);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: anyText },
    { weight: 1, arbitrary: jsonOddity },
  );
}

function validFor(kind: Kind): fc.Arbitrary<Value> {
  if (kind.startsWith('id:')) {
    const pool = kind.slice(3) as PoolName;
    return fc.oneof(
      { weight: 5, arbitrary: ref(pool) },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) },
    );
  }
  switch (kind) {
    case 'username':
      return fc.oneof(ref('username'), usernameArb);
    case 'newUsername':
      return usernameArb;
    case 'password':
      return fc.oneof(
        ref('password'),
        str({ unit: 'grapheme', minLength: 0, maxLength: 20 }),
        fc.constantFrom('short', '12345678', 'x'.repeat(256), 'x'.repeat(257), 'pässwörd-ünï'),
      );
    case 'role':
      return fc.constantFrom('Admin', 'User', 'Pass', 'Server', 'admin', 'root', '');
    case 'bool':
      return fc.constantFrom<Value>('true', 'false', '1', '0', 'TRUE', ' false ', 'yes', true, false, 1, 0);
    case 'code':
      return fc.oneof(
        ref('inviteCode'),
        fc.stringMatching(/^[A-Z2-9]{4}$/),
        fc.constantFrom('abcd', 'ABC', 'ABCDE', '0O1I', ' AB2C ', 'ÄBCD'),
      );
    case 'device':
      return fc.oneof(
        fc.constantFrom('Phone', 'Living room', 'x'.repeat(128), 'x'.repeat(129), '📱'),
        str({ unit: 'grapheme', maxLength: 30 }),
      );
    case 'date':
    case 'logDate':
      return dateArb;
    case 'page':
      return intText([0, 1_000_000]);
    case 'count':
      return intText([1, 100, 1000]);
    case 'rating':
      return intText([0, 10]);
    case 'pos':
      return intText([0, 1, 2, 1_000_000]);
    case 'step':
      return fc.constantFrom('day', 'week', 'month', 'year', 'DAY', 'hour', '');
    case 'source':
      return fc.constantFrom('listenbrainz', 'lastfm', 'spotify', 'LASTFM', 'napster', '');
    case 'format':
      return fc.constantFrom('listenbrainz', 'csv', 'CSV', 'xml', '');
    case 'year':
      return intText([2002, 2025, 2026, 1990, 9999]);
    case 'q':
      return fc.oneof(fc.constantFrom('tone', 'TONE', 'ö', '%', '_', '.*', 'x'.repeat(257)), str());
    case 'name':
      return fc.oneof(str({ unit: 'grapheme', minLength: 1, maxLength: 30 }), fc.constant('x'.repeat(257)));
    case 'description':
      return fc.oneof(str({ unit: 'grapheme', maxLength: 60 }), fc.constant('d'.repeat(4097)));
    case 'audioFormat':
      return fc.constantFrom('mp3', 'opus', 'aac', 'MP3', 'wav', 'flac', '');
    case 'favouriteKind':
      // Weighted to `track`, the kind the `id:track` pool's ids belong to, so starring succeeds too.
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant('track') },
        { weight: 1, arbitrary: fc.constantFrom('album', 'artist', 'Track', 'playlist', '') },
      );
    case 'bitRate':
      return intText([0, 31, 32, 64, 128, 320, 10_000, 10_001]);
    case 'timeOffset':
      return fc.constantFrom('0', '0.5', '1', '2.125', '1e3', '-1', '3600', '86401', 'x', '');
    case 'serviceUrl':
      // Only loopback addresses nothing listens on, or addresses the server must refuse: a fuzzed
      // member's plays may never leave the machine.
      return fc.constantFrom(
        'http://127.0.0.1:9',
        'http://127.0.0.1:9/apis/listenbrainz/',
        'ftp://127.0.0.1:9',
        'http://user:secret@127.0.0.1:9',
        'http://127.0.0.1:9/?token=x',
        'not a url',
        `http://127.0.0.1:9/${'x'.repeat(600)}`,
        '',
      );
    case 'trackIds':
      return fc.oneof(
        fc.array(ref('track'), { maxLength: 5 }) as fc.Arbitrary<Value>,
        fc.array(ref('track'), { minLength: 1, maxLength: 3 }).map((refs) => refs as Value),
        fc.constantFrom<Value>('a,b', ',,,', 'x'.repeat(65), [1, 2], [null], Array(10_001).fill('a')),
      );
    default:
      return anyText;
  }
}

const EXTRA_NAMES = [
  'x',
  'id[]',
  'a.b',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'ü',
  '%00',
  '',
  ' ',
  'role',
  'userId',
  'id',
];

// -------------------------------------------------------------------------------------- requests

const OTHER_METHODS = METHODS.filter((m) => m !== 'CONNECT');

const GARBAGE_TOKENS = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer x',
  'Bearer a.b.c',
  'Basic YWRtaW46YWRtaW4=',
  'bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4Iiwicm9sZSI6IkFkbWluIn0.',
  'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiQWRtaW4ifQ.c2lnbmF0dXJl',
  `Bearer ${'A'.repeat(4000)}`,
  'Bearer %00',
  'Bearer ../../secret.key',
  'Bearer token extra',
];

const PATH_SUFFIXES = ['', '', '', '', '', '/', '//', '/..', '/%2e%2e', '?', '#frag', '/x'];

/** The request generator over the given routes; `specs[i]` describes `routes[i]`. */
export function requestArbitrary(
  routes: Array<{ method: string; path: string; access: readonly string[] | 'public'; multipart: boolean }>,
  specs: RouteSpec[],
): fc.Arbitrary<FuzzRequest> {
  const routeIndex = fc.oneof(
    { weight: 1, arbitrary: fc.constant(-1) },
    ...routes.map((_, i) => ({
      weight: specs[i]!.weight === 0 ? 0 : Math.max(1, Math.round((specs[i]!.weight ?? 1) * 20)),
      arbitrary: fc.constant(i),
    })),
  );
  // Built once per route (and once for unknown paths): building arbitraries is far dearer than
  // drawing from them.
  const byRoute = new Map<number, fc.Arbitrary<FuzzRequest>>();
  return routeIndex.chain((i) => {
    let arbitrary = byRoute.get(i);
    if (!arbitrary) byRoute.set(i, (arbitrary = routeRequest(i, routes, specs)));
    return arbitrary;
  });
}

function routeRequest(
  i: number,
  routes: Array<{ method: string; path: string; access: readonly string[] | 'public'; multipart: boolean }>,
  specs: RouteSpec[],
): fc.Arbitrary<FuzzRequest> {
  const route = routes[i];
  const spec = specs[i] ?? { params: {} };
  const pathParams = route ? [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!) : [];
  const accepted = route && route.access !== 'public' ? route.access : [];
  const principal: fc.Arbitrary<Principal> = fc.oneof(
    {
      weight: accepted.length > 0 ? 7 : 0,
      arbitrary: fc.constantFrom(
        ...(accepted.length > 0
          ? accepted.map((role) => role.toLowerCase() as Principal)
          : ['none' as const]),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Principal>('admin', 'user', 'pass', 'server', 'none', 'garbage'),
    },
  );
  const named = Object.entries(spec.params);
  const paramList = fc
    .tuple(
      ...named.map(([name, kind]) =>
        fc.option(
          valueFor(kind).map((v): [string, Value] => [name, v]),
          { freq: 5, nil: undefined },
        ),
      ),
      fc.array(fc.tuple(fc.constantFrom(...EXTRA_NAMES), anyText as fc.Arbitrary<Value>), { maxLength: 2 }),
      fc.option(fc.constantFrom(...(named.length > 0 ? named.map(([n]) => n) : ['x'])), { freq: 8 }),
    )
    .map((parts) => {
      const extra = parts[parts.length - 2] as Array<[string, Value]>;
      const repeated = parts[parts.length - 1] as string | null;
      const params = (parts.slice(0, -2) as Array<[string, Value] | undefined>).filter(
        (p): p is [string, Value] => p !== undefined,
      );
      const all = [...params, ...extra];
      // The same parameter twice (first wins on the server), with a different value.
      if (repeated !== null) all.push([repeated, 'repeated-value']);
      return all;
    });
  const isPost = route?.method === 'POST';
  // Weights out of ~1,000: a body over 1 MiB now and then, every other shape often.
  const bodyKind: fc.Arbitrary<BodyKind> = isPost
    ? fc.oneof(
        { weight: route.multipart ? 500 : 50, arbitrary: fc.constant<BodyKind>('multipart') },
        { weight: 300, arbitrary: fc.constant<BodyKind>('json') },
        { weight: 250, arbitrary: fc.constant<BodyKind>('form') },
        { weight: 100, arbitrary: fc.constant<BodyKind>('none') },
        {
          weight: 100,
          arbitrary: fc.constantFrom<BodyKind>(
            'text',
            'xml',
            'truncated-json',
            'bad-json',
            'json-array',
            'json-scalar',
            'json-as-form',
            'form-as-json',
            'empty-json',
            'charset',
            'encoding',
            'deep-json',
          ),
        },
        { weight: 1, arbitrary: fc.constant<BodyKind>('big-json') },
      )
    : mostly<BodyKind>(12, 'none', 'json', 'form', 'truncated-json', 'encoding');
  const method = route
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constant(route.method === 'GET' ? 'POST' : 'GET') },
        { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      )
    : fc.constantFrom('GET', 'POST', ...OTHER_METHODS);
  const unknownPath = fc.oneof(
    fc.constantFrom(
      '/',
      '/api',
      '/api/',
      '/api/../secret.key',
      '/api/tracks/a/b/c',
      '/%00',
      '/admin/../../users.json',
      '/admin/%2e%2e/secret.key',
      '/artwork/../users.json',
      '/users.json',
      '/secret.key',
      '/api/stats/log-play/extra',
      '/API/HEALTH',
      '/api/health%00',
      '/api/art/track',
      '/api/art/track/x',
      '/api/art/track/x/0/extra',
      '//api//health',
      '/api/health/',
      '/.env',
      '/favicon.ico',
    ),
    fc.webPath(),
  );
  return fc.record({
    route: fc.constant(i),
    unknownPath,
    method,
    principal,
    garbageToken: fc.constantFrom(...GARBAGE_TOKENS),
    pathValues: fc.tuple(
      ...pathParams.map((name) => valueFor(name === 'pos' ? 'pos' : (spec.params[name] ?? 'text'))),
    ),
    rawEncoding: fc.boolean(),
    pathSuffix: fc.constantFrom(...PATH_SUFFIXES),
    query: isPost ? fc.oneof(fc.constant([] as Array<[string, Value]>), paramList) : paramList,
    body: paramList,
    bodyKind,
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    contentTypeVariant: fc.constantFrom(
      '',
      '; charset=utf-8',
      '; charset=UTF-8',
      '; charset=latin1',
      '; charset=utf-16',
      '; charset=bogus',
      ';;;',
    ),
    file: fc.constantFrom<FileKind>(
      'png',
      'jpg',
      'webp',
      'png',
      'not-image',
      'empty',
      'random',
      'none',
      'two-files',
    ),
    fileName: fc.constantFrom(
      'cover.png',
      '../../../etc/passwd',
      'a\u0000b.png',
      'ünï.jpg',
      '',
      'x'.repeat(300),
    ),
    flaw: mostly<MultipartFlaw>(8, 'none', 'truncated', 'wrong-boundary', 'no-boundary', 'nameless-part'),
    ifNoneMatch: fc.boolean(),
    origin: mostly<string | null>(
      12,
      null,
      '$self',
      '$self/',
      'http://evil.example',
      'null',
      'http://127.0.0.1',
      'https://127.0.0.1',
      'file://',
      'not a url',
    ),
    fetchSite: mostly<string | null>(
      12,
      null,
      'cross-site',
      'same-site',
      'same-origin',
      'none',
      'cross-site navigate',
    ),
  });
}
