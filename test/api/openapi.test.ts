import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../server/http/native/openapi.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser } from '../factories/users.js';
import {
  checkResponse,
  responseChecker,
  ResponseMismatchError,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiSchema,
} from '../support/openapi.js';
import { documentOf, postJson, problem, useTestServer } from '../support/server.js';

/**
 * GET /api/openapi.json: it describes every route of the route table, with the limits the routes
 * really enforce, and real responses fit it. (Every response of every API test is checked against
 * it too: test/support/server.ts.)
 */

let doc: OpenApiDocument;

const library = makeLibrary({
  artists: [{ id: 'ar1', name: 'Nina' }],
  albums: [{ id: 'al1', name: 'Blue', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', name: 'One', artistIds: ['ar1'], genres: ['Jazz'] },
    { id: 't2', name: 'Two', artistIds: ['ar1'] },
  ],
});

const t = useTestServer({ scanner: fakeScanner(library) });

beforeAll(async () => {
  const response = await t.call('/api/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await response.json()) as OpenApiDocument;
});

const templateOf = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

/** The operation at a path; fails the test when there is none. */
function op(path: string, method: 'get' | 'post'): OpenApiOperation {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`no ${method} ${path} in the document`);
  return operation;
}

/** The schema a `$ref` names. */
function named(schema: OpenApiSchema | undefined): OpenApiSchema {
  const name = schema?.$ref?.replace('#/components/schemas/', '') ?? '';
  const found = doc.components.schemas[name];
  if (!found) throw new Error(`no schema ${schema?.$ref}`);
  return found;
}

/** The body parameters of a POST (its JSON body schema). */
const bodyOf = (path: string) => named(op(path, 'post').requestBody?.content['application/json']?.schema);

/** The problem codes a response lists. */
function codes(path: string, method: 'get' | 'post', status: number): unknown[] | undefined {
  const schema = op(path, method).responses[status]?.content?.['application/problem+json']?.schema;
  return schema?.properties?.code?.enum;
}

/** Every `$ref` in a value. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refs(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else refs(item, found);
    }
  }
  return found;
}

describe('the document', () => {
  it('is the route table: every route, its method and roles, and nothing else', () => {
    const routes = t.server.routes;
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const operation = doc.paths[templateOf(route.path)]?.[route.method.toLowerCase()];
      expect(operation, `${label} is missing from the document`).toBeDefined();
      const roles = route.access === 'public' ? [] : [...route.access];
      expect(operation?.['x-roles'], label).toEqual(roles);
      expect(operation?.security, label).toEqual(roles.length === 0 ? [] : [{ bearer: [] }]);
    }
    expect(operations()).toHaveLength(routes.length);
  });

  it('is what the server makes from its routes', () => {
    expect(doc).toEqual(openApiDocument(t.server.routes, t.server.config.version));
    expect(documentOf(t.server)).toEqual(doc);
  });

  it('has the basic structure of OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Melon', version: t.server.config.version });
    expect(doc.components.securitySchemes?.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    );
    const ids = new Set<string>();
    for (const { path, method, operation } of operations()) {
      const label = `${method.toUpperCase()} ${path}`;
      expect(['get', 'post'], label).toContain(method);
      expect(path, label).toMatch(/^\//);
      expect(typeof operation.operationId, label).toBe('string');
      expect(ids.has(operation.operationId), `${label}: duplicate operationId`).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary, label).toBeTruthy();
      expect(operation.tags, label).toHaveLength(1);
      // Every `{name}` of the path is a required path parameter, and only those are.
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const parameters = operation.parameters ?? [];
      expect(
        parameters.filter((p) => p.in === 'path').map((p) => p.name),
        label,
      ).toEqual(names);
      for (const parameter of parameters) {
        expect(['path', 'query'], label).toContain(parameter.in);
        expect(parameter.schema.type, `${label} ${parameter.name}`).toBeDefined();
        if (parameter.in === 'path') expect(parameter.required, label).toBe(true);
      }
      const statuses = Object.keys(operation.responses);
      for (const status of statuses) expect(status, label).toMatch(/^[1-5]\d\d$/);
      expect(statuses, label).toContain('500');
      expect(statuses, label).toContain('403');
      if (operation['x-roles'].length > 0) expect(statuses, label).toContain('401');
    }
  });

  it('resolves every reference, and its schemas compile as JSON Schema 2020-12', () => {
    const sections = doc.components as unknown as Record<string, Record<string, unknown>>;
    for (const ref of refs(doc)) {
      const [, section = '', name = ''] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect(sections[section]?.[name], `unresolved ${ref}`).toBeDefined();
    }
    const ajv = new Ajv2020({ strict: true, strictTypes: false });
    ajv.addFormat('date-time', true);
    const rewrite = (schema: unknown) =>
      JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/'),
      ) as OpenApiSchema;
    ajv.addSchema({ $id: 'components', $defs: rewrite(doc.components.schemas) });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `components#/$defs/${name}` }), name).not.toThrow();
    }
    for (const { path, method, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          if (media.schema)
            expect(() => ajv.compile(rewrite(media.schema)), `${method} ${path} ${status}`).not.toThrow();
        }
      }
    }
  });

  it('lists parameters with their types and limits: query for GET, query and body for POST', () => {
    expect(op('/api/tracks', 'get').parameters?.find((p) => p.name === 'count')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    });
    expect(op('/auth/login', 'get').parameters?.find((p) => p.name === 'username')).toMatchObject({
      in: 'query',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 256 },
    });
    const login = op('/auth/login', 'post');
    expect(login.parameters?.find((p) => p.name === 'username')).toMatchObject({
      in: 'query',
      required: false,
    });
    expect(Object.keys(login.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(bodyOf('/auth/login')).toMatchObject({
      properties: { password: { type: 'string', maxLength: 1024 } },
      required: ['username', 'password'],
    });
    expect(bodyOf('/api/stats/rate-track').properties?.rating).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 10,
    });
    expect(bodyOf('/api/users/create').properties).toMatchObject({
      password: { minLength: 8, maxLength: 256 },
      role: { enum: ['Admin', 'User', 'Pass'] },
    });
    const upload = op('/api/art/upload/artist-pfp', 'post').requestBody;
    expect(Object.keys(upload?.content ?? {})).toEqual(['multipart/form-data']);
    expect(upload?.content['multipart/form-data']?.schema?.required).toEqual(['id', 'file']);
  });

  it('lists every status a route gives, with problem codes, images and 304s', () => {
    const image = op('/api/art/track/{id}/{pos}', 'get').responses;
    expect(Object.keys(image[200]?.content ?? {})).toEqual(['image/*']);
    expect(image[200]?.headers?.ETag).toBeDefined();
    expect(image[304]).toBeDefined();
    expect(image[304]?.content).toBeUndefined();
    expect(codes('/auth/login', 'post', 429)).toEqual(['too_many_attempts']);
    expect(codes('/api/users/create', 'post', 409)).toEqual(['username_taken']);
    expect(codes('/api/art/upload/artist-pfp', 'post', 415)).toEqual(['unsupported_media_type']);
    expect(codes('/api/stats/top-tracks', 'get', 401)).toEqual([
      'forbidden_role',
      'invalid_token',
      'missing_token',
      'stats_private',
    ]);
    expect(op('/api/art/upload/artist-pfp', 'post').responses[413]).toEqual({
      $ref: '#/components/responses/PayloadTooLarge',
    });
    expect(op('/api/users/create', 'post').responses[201]?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/User',
    });
    expect(Object.keys(op('/api/health', 'get').responses)).toEqual(['200', '403', '500']);
  });
});

describe('the limits in the document are the limits the server enforces', () => {
  /** A value the parameter's schema accepts. */
  const valid = (schema: OpenApiSchema): unknown => {
    if (schema.examples) return schema.examples[0];
    if (schema.enum) return schema.enum[0];
    if (schema.type === 'integer') return schema.minimum ?? 0;
    if (schema.type === 'boolean') return true;
    if (schema.type === 'array') return ['x'];
    return 'x'.repeat(schema.minLength ?? 1);
  };
  /** Values just past the parameter's limits. */
  const beyond = (schema: OpenApiSchema): unknown[] => [
    ...(schema.maxLength !== undefined ? ['y'.repeat(schema.maxLength + 1)] : []),
    ...(schema.minLength !== undefined && schema.minLength > 1 ? ['y'.repeat(schema.minLength - 1)] : []),
    ...(schema.maximum !== undefined ? [schema.maximum + 1] : []),
    ...(schema.minimum !== undefined ? [schema.minimum - 1] : []),
    ...(schema.type === 'integer' ? [1.5] : []),
    ...(schema.enum ? ['not-one-of-them'] : []),
    ...(schema.maxItems !== undefined ? [Array.from({ length: schema.maxItems + 1 }, () => 'z')] : []),
  ];

  it('refuses a value past each limit with 400 naming the parameter, on every route', async () => {
    let checked = 0;
    for (const { path, method, operation } of operations()) {
      if (path.includes('{') || operation.requestBody?.content['multipart/form-data']) continue;
      const parameters = new Map<string, OpenApiSchema>();
      const required = new Set<string>();
      if (method === 'get') {
        for (const p of operation.parameters ?? []) {
          parameters.set(p.name, p.schema);
          if (p.required) required.add(p.name);
        }
      } else if (operation.requestBody) {
        const schema = bodyOf(path);
        for (const [key, value] of Object.entries(schema.properties ?? {})) parameters.set(key, value);
        for (const key of schema.required ?? []) required.add(key);
      }
      for (const [name, schema] of parameters) {
        for (const bad of beyond(schema)) {
          const params: Record<string, unknown> = {};
          for (const other of required) if (other !== name) params[other] = valid(parameters.get(other)!);
          params[name] = bad;
          const query = new URLSearchParams(
            Object.entries(params).map(([key, value]) => [key, String(value)]),
          ).toString();
          const response =
            method === 'get'
              ? await t.call(`${path}?${query}`, { token: t.adminToken })
              : await postJson(t, path, params, t.adminToken);
          const label = `${method.toUpperCase()} ${path} ${name}=${JSON.stringify(bad).slice(0, 40)}`;
          expect(response.status, label).toBe(400);
          expect(await problem(response), label).toMatchObject({
            code: 'invalid_parameter',
            parameter: name,
          });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });
});

describe('real responses fit the document', () => {
  // The shared client checks each of these; the assertions here make sure they really happened.
  it('fits the success bodies of reads and writes', async () => {
    const user = await makeUser(t, { role: 'User' });
    const reads = [
      '/api/health',
      '/api/server-info',
      '/auth/check',
      '/auth/invites',
      '/api/users',
      '/api/tracks',
      '/api/tracks/t1',
      '/api/albums?q=blu',
      '/api/albums/al1',
      '/api/artists',
      '/api/artists/ar1',
      '/api/library/scan',
      '/api/settings/update-status',
    ];
    for (const path of reads) expect((await t.call(path, { token: t.adminToken })).status, path).toBe(200);

    expect((await postJson(t, '/api/stats/log-play', { id: 't1', device: 'Phone' }, user.token)).status).toBe(
      200,
    );
    expect((await postJson(t, '/api/stats/log-skip', { id: 't2' }, user.token)).status).toBe(200);
    expect((await postJson(t, '/api/stats/rate-track', { id: 't1', rating: 7 }, user.token)).status).toBe(
      200,
    );
    const stats = [
      'listening-time',
      'top-tracks',
      'top-albums',
      'top-artists',
      'top-genres',
      'recent-tracks',
      'recent-albums',
      'recent-artists',
      'activity?step=week',
    ];
    for (const path of stats) {
      const response = await t.call(`/api/stats/${path}`, { token: user.token });
      expect(response.status, path).toBe(200);
    }
    const top = (await (await t.call('/api/stats/top-tracks', { token: user.token })).json()) as {
      id: string;
    }[];
    expect(top[0]).toMatchObject({ id: 't1', plays: 1, skips: 0 });

    const playlist = await postJson(
      t,
      '/api/playlists/create',
      { name: 'Mix', trackIds: ['t1', 't2'] },
      user.token,
    );
    expect(playlist.status).toBe(201);
    const { id } = (await playlist.json()) as { id: string };
    expect((await t.call(`/api/playlists/${id}`, { token: user.token })).status).toBe(200);
    expect((await t.call('/api/playlists', { token: user.token })).status).toBe(200);
    expect((await t.call('/api/library/scan', { method: 'POST', token: t.adminToken })).status).toBe(202);
  });

  it('fits images, 304s and uploads', async () => {
    const image = await t.call('/api/art/default', { token: t.adminToken });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = await image.arrayBuffer();
    const again = await t.call('/api/art/default', {
      token: t.adminToken,
      headers: { 'If-None-Match': image.headers.get('etag')! },
    });
    expect(again.status).toBe(304);

    const form = new FormData();
    form.set('id', 'ar1');
    form.set('file', new Blob([bytes], { type: 'image/png' }), 'pfp.png');
    const uploaded = await t.call('/api/art/upload/artist-pfp', {
      method: 'POST',
      body: form,
      token: t.adminToken,
    });
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toEqual({ id: 'ar1', pos: 0 });
    expect((await t.call('/api/art/artist-pfp/ar1/0', { token: t.adminToken })).status).toBe(200);
    expect(
      (await postJson(t, '/api/art/delete/artist-pfp', { id: 'ar1', pos: 0 }, t.adminToken)).status,
    ).toBe(200);
  });

  it('fits the problems: 400, 401, 403, 404, 409, 413 and unknown paths', async () => {
    const cases: [Promise<Response>, number, string][] = [
      [
        postJson(t, '/api/stats/rate-track', { id: 't1', rating: 11 }, t.adminToken),
        400,
        'invalid_parameter',
      ],
      [t.call('/api/users'), 401, 'missing_token'],
      [t.call('/api/tracks/nope', { token: t.adminToken }), 404, 'track_not_found'],
      [
        postJson(t, '/api/users/create', { username: 'admin', password: 'long enough' }, t.adminToken),
        409,
        'username_taken',
      ],
      [
        postJson(t, '/api/stats/log-play', { id: 'x'.repeat(2 * 1024 * 1024) }, t.adminToken),
        413,
        'payload_too_large',
      ],
      [t.call('/api/nothing-here'), 404, 'not_found'],
      [
        t.call('/api/health', { headers: { Origin: 'http://elsewhere.example' } }),
        403,
        'cross_origin_refused',
      ],
      [t.call('/api/health', { method: 'DELETE' }), 405, 'method_not_allowed'],
    ];
    for (const [pending, status, code] of cases) {
      const response = await pending;
      expect(response.status, code).toBe(status);
      expect((await problem(response)).code).toBe(code);
    }
  });
});

describe('checkResponse', () => {
  const json = (body: unknown, status = 200, type = 'application/json; charset=utf-8') =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
  const problemOf = (status: number, code: string) =>
    json({ type: 'about:blank', title: 'x', status, detail: 'x', code }, status, 'application/problem+json');

  it('accepts a fitting response and leaves it unread', async () => {
    const response = json({ status: 'ok', version: '1.0.0' });
    await checkResponse(doc, 'GET', '/api/health', response);
    expect(await response.json()).toEqual({ status: 'ok', version: '1.0.0' });
  });

  it('refuses, naming the mismatch: a wrong body, an unlisted status, an unknown code, a wrong type', async () => {
    const refusals: [Response, string, string, RegExp][] = [
      [json({ status: 'ok' }), 'GET', '/api/health', /must have required property 'version'/],
      [json({ status: 'ok', version: '1', extra: 1 }), 'GET', '/api/health', /additional properties/],
      [json({ status: 'ok', version: '1' }, 201), 'GET', '/api/health', /status 201 is not listed/],
      [problemOf(404, 'album_not_found'), 'GET', '/api/tracks/t1', /\/code must be equal to one of/],
      [problemOf(400, 'invalid_parameter'), 'GET', '/api/tracks/t1', /status 400 is not listed/],
      [
        new Response('<html>', { headers: { 'content-type': 'text/html' } }),
        'GET',
        '/api/health',
        /content type/,
      ],
      [json({ items: 'no' }), 'GET', '/api/tracks?page=1', /\/items must be array/],
    ];
    for (const [response, method, path, message] of refusals) {
      const error = await checkResponse(doc, method, path, response).catch((e: unknown) => e);
      expect(error, String(message)).toBeInstanceOf(ResponseMismatchError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(`${method} ${path}`);
    }
  });

  it('finds literal paths before templates and checks unknown paths as problems', () => {
    const checker = responseChecker(doc);
    expect(checker.operation('POST', '/api/playlists/create')?.template).toBe('/api/playlists/create');
    expect(checker.operation('GET', '/api/playlists/create')?.template).toBe('/api/playlists/{id}');
    expect(checker.operation('GET', '/api/art/track/t1/0?x=1')?.template).toBe('/api/art/track/{id}/{pos}');
    expect(checker.mismatches('GET', '/nope', 404, 'application/problem+json', '{"status":404}')).not.toEqual(
      [],
    );
  });
});
