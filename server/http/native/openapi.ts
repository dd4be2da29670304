import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { answeredWhileStarting } from '../starting.js';
import { problemSchema } from '../../contract/common.js';
import {
  endpoint,
  ROUTE_GROUPS,
  type EndpointDoc,
  type Endpoint,
  type ResponseDoc,
  type RouteDef,
} from '../endpoint.js';

/**
 * The OpenAPI 3.1 document of the route table (`GET /api/openapi.json`). Everything in it comes
 * from the routes: method, path and roles from the table; parameters from the zod shapes the
 * endpoints validate with; responses from the schemas their handlers are typed against; and the
 * problems every route of a kind can give (401 of protected routes, 400/413 of bodies, ...).
 */

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SCHEMAS = '#/components/schemas/';

/** Converts zod schemas to JSON Schema 2020-12, collecting the named ones (`.meta({ id })`). */
class SchemaCollector {
  readonly schemas: Record<string, Json> = {};
  private readonly converted = { input: new WeakMap<object, Json>(), output: new WeakMap<object, Json>() };
  private readonly shapes = new WeakMap<object, ReturnType<SchemaCollector['shape']>>();

  convert(schema: z.ZodType, io: Io): Json {
    let json = this.converted[io].get(schema);
    if (!json) {
      json = this.toJsonSchema(schema, io);
      this.converted[io].set(schema, json);
    }
    return structuredClone(json);
  }

  private toJsonSchema(schema: z.ZodType, io: Io): Json {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$schema;
    delete json.$defs;
    for (const [id, def] of Object.entries(defs)) {
      const named = withComponentRefs(def);
      const known = this.schemas[id];
      if (known && !isDeepStrictEqual(known, named))
        throw new Error(`Two different schemas are named '${id}'`);
      this.schemas[id] = named;
    }
    return withComponentRefs(json);
  }

  /** The properties of a shape and which are required, as a client sends them. */
  shape(shape: z.ZodRawShape): { properties: Record<string, Json>; required: string[] } {
    let result = this.shapes.get(shape);
    if (!result) {
      // Output mode keeps defaults (`page` 0, `count` 100); input mode knows what may be left out.
      const object = z.object(shape);
      result = {
        properties: (this.convert(object, 'output').properties ?? {}) as Record<string, Json>,
        required: (this.convert(object, 'input').required ?? []) as string[],
      };
      this.shapes.set(shape, result);
    }
    return structuredClone(result);
  }
}

function withComponentRefs(schema: Json): Json {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) =>
      key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, SCHEMAS) : value,
    ),
  ) as Json;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /api/tracks/:id` → `getTracksById`. */
function operationId(route: RouteDef): string {
  const words = route.path
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .map((segment) =>
      segment.startsWith(':')
        ? `By${capital(segment.slice(1))}`
        : segment.split(/[-.]/).map(capital).join(''),
    );
  return route.method.toLowerCase() + words.join('');
}

const requestIdHeader = { $ref: '#/components/headers/RequestId' };

/** The problems a route can give: its own, and those of every route of its kind. */
function problemCodes(route: RouteDef, doc: EndpointDoc): Map<number, Set<string>> {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...list: readonly string[]) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  const validates =
    Object.keys(doc.params).length > 0 ||
    Object.keys(doc.files).length > 0 ||
    Object.values(doc.path).some((schema) => !(schema instanceof z.ZodString));
  if (validates) add(400, 'invalid_parameter');
  if (route.method === 'POST') {
    add(400, 'invalid_body');
    add(413, 'payload_too_large');
  }
  if (route.body === 'multipart') add(415, 'unsupported_media_type');
  if (route.access !== 'public') add(401, 'missing_token', 'invalid_token', 'forbidden_role');
  // The cross-origin guard (http/cross-origin.ts) stands before every route.
  add(403, 'cross_origin_refused');
  // So does the start's (http/starting.ts), for all but what it answers at once.
  if (!answeredWhileStarting(route.path)) add(503, 'starting');
  for (const [status, list] of Object.entries(doc.errors)) add(Number(status), ...list);
  add(500, 'internal_error');
  return codes;
}

/** Problems that read the same on every route that gives them: shared under `components.responses`. */
const SHARED_PROBLEMS: { name: string; status: number; codes: readonly string[] }[] = [
  { name: 'Unauthorized', status: 401, codes: ['forbidden_role', 'invalid_token', 'missing_token'] },
  { name: 'CrossOriginRefused', status: 403, codes: ['cross_origin_refused'] },
  { name: 'PayloadTooLarge', status: 413, codes: ['payload_too_large'] },
  { name: 'Starting', status: 503, codes: ['starting'] },
  { name: 'InternalError', status: 500, codes: ['internal_error'] },
];

function problemResponse(status: number, codes: Iterable<string>): Json {
  const list = [...codes].sort();
  const shared = SHARED_PROBLEMS.find(
    (problem) => problem.status === status && isDeepStrictEqual(problem.codes, list),
  );
  if (shared) return { $ref: `#/components/responses/${shared.name}` };
  return problemResponseBody(status, list);
}

function problemResponseBody(status: number, list: readonly string[]): Json {
  const headers: Json = { 'X-Request-Id': requestIdHeader };
  if (status === 401)
    headers['WWW-Authenticate'] = { description: 'Bearer, with the error', schema: { type: 'string' } };
  if (status === 416)
    headers['Content-Range'] = {
      description: 'bytes */<size>: the size of the whole file',
      schema: { type: 'string' },
    };
  if (status === 429 || status === 503)
    headers['Retry-After'] = {
      description: 'Seconds until a new attempt may succeed',
      schema: { type: 'integer' },
    };
  return {
    description: `Problem: ${list.join(', ')}`,
    headers,
    content: {
      'application/problem+json': {
        schema: {
          $ref: `${SCHEMAS}Problem`,
          properties: { status: { const: status }, code: { enum: list } },
        },
      },
    },
  };
}

function successResponse(response: ResponseDoc, schemas: SchemaCollector): Json {
  const headers: Json = { 'X-Request-Id': requestIdHeader };
  for (const [name, description] of Object.entries(response.headers ?? {}))
    headers[name] = { description, schema: { type: 'string' } };
  const content = response.json
    ? { 'application/json': { schema: schemas.convert(response.json, 'output') } }
    : response.mediaType?.startsWith('image/') || response.mediaType?.startsWith('audio/')
      ? { [response.mediaType]: {} }
      : response.mediaType
        ? Object.fromEntries(
            [response.mediaType, ...(response.otherMediaTypes ?? [])].map((type) => [
              type,
              { schema: { type: 'string' } },
            ]),
          )
        : undefined;
  return { description: response.description, headers, ...(content ? { content } : {}) };
}

const rolesText = (route: RouteDef) =>
  route.access === 'public' ? 'Roles: none (no token needed).' : `Roles: ${route.access.join(', ')}.`;

function operation(route: RouteDef, doc: EndpointDoc, schemas: SchemaCollector): Json {
  const pathShape = schemas.shape(doc.path);
  const params = schemas.shape(doc.params);
  const post = route.method === 'POST';
  const parameters: Json[] = [
    ...Object.entries(pathShape.properties).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema,
    })),
    ...Object.entries(params.properties).map(([name, { description, ...schema }]) => ({
      name,
      in: 'query',
      // A POST parameter may come in the body instead.
      required: !post && params.required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
      schema,
    })),
  ];

  let requestBody: Json | undefined;
  const bodySchema = (extra: Record<string, Json>, extraRequired: string[]): Json => {
    const required = [...params.required, ...extraRequired];
    return {
      type: 'object',
      properties: { ...params.properties, ...extra },
      ...(required.length > 0 ? { required } : {}),
    };
  };
  if (route.body === 'multipart') {
    const files = Object.fromEntries(
      Object.entries(doc.files).map(([name, description]) => [
        name,
        { type: 'string', contentMediaType: 'application/octet-stream', description },
      ]),
    );
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: bodySchema(files, Object.keys(files)),
          encoding: Object.fromEntries(
            Object.keys(files).map((name) => [name, { contentType: 'image/jpeg, image/png, image/webp' }]),
          ),
        },
      },
    };
  } else if (post && Object.keys(params.properties).length > 0) {
    const name = `${capital(operationId(route))}Parameters`;
    schemas.schemas[name] = bodySchema({}, []);
    const schema = { $ref: `${SCHEMAS}${name}` };
    requestBody = {
      required: false,
      description:
        'The parameters, as JSON or as a form; they may also come in the query string (the body wins).',
      content: {
        'application/json': { schema },
        'application/x-www-form-urlencoded': { schema },
      },
    };
  }

  const responses: Record<string, Json> = {};
  const codes = problemCodes(route, doc);
  const statuses = [...new Set([...Object.keys(doc.responses).map(Number), ...codes.keys()])].sort(
    (a, b) => a - b,
  );
  for (const status of statuses) {
    const success = doc.responses[status];
    responses[String(status)] = success
      ? successResponse(success, schemas)
      : problemResponse(status, codes.get(status)!);
  }

  const roles = route.access === 'public' ? [] : [...route.access];
  return {
    operationId: operationId(route),
    summary: doc.summary,
    description: [doc.description, rolesText(route)].filter(Boolean).join('\n\n'),
    tags: [route.group],
    'x-roles': roles,
    security: roles.length === 0 ? [] : [{ bearer: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

const DESCRIPTION = `A self-hosted music-library server for a household.

- Errors are RFC 9457 problem documents (\`application/problem+json\`); clients switch on \`code\`.
- GET endpoints read the query string; POST endpoints read the query string and the body (JSON or a
  form), and the body wins. An empty value counts as absent; a parameter given twice takes its first
  value; unknown parameters are ignored.
- Protected endpoints take \`Authorization: Bearer <JWT>\` or \`Bearer <API key>\`; \`x-roles\` lists the
  roles each accepts.
  A token whose role is not listed is refused with 401 \`forbidden_role\`.
- Bodies over 1 MiB (uploads: 20 MiB; history imports: 1 GiB) are refused with 413.
- Requests a browser marks as coming from a web page of another origin are refused with 403
  \`cross_origin_refused\`, on every endpoint.`;

/** The document for a list of routes. Throws when a route has no description. */
export function openApiDocument(routes: readonly RouteDef[], version: string): Json {
  const schemas = new SchemaCollector();
  schemas.convert(problemSchema, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    if (!route.doc)
      throw new Error(`${route.method} ${route.path} has no description for the OpenAPI document`);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, route.doc, schemas);
  }
  const used = new Set(
    Object.values(paths).flatMap((methods) => Object.values(methods).flatMap((op) => op.tags as string[])),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Melon',
      version,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: Object.entries(ROUTE_GROUPS)
      .filter(([name]) => used.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A token from /auth/login or /auth/code-authenticate (HS256 JWT), or an API key (`melon_…`, from /api/users/api-keys/create).',
        },
      },
      responses: Object.fromEntries(
        SHARED_PROBLEMS.map((problem) => [problem.name, problemResponseBody(problem.status, problem.codes)]),
      ),
      headers: {
        RequestId: {
          description: 'The id of this request, also in the server log',
          schema: { type: 'string' },
        },
      },
    },
  };
}

const documentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'This document' });

/** `GET /api/openapi.json`: the document of the route table, made once on first request. */
export function openApiEndpoint(routes: () => readonly RouteDef[], version: string): Endpoint {
  let document: Json | undefined;
  return endpoint({
    summary: 'The OpenAPI 3.1 description of this API',
    response: documentSchema,
    handle: () => (document ??= openApiDocument(routes(), version)) as z.output<typeof documentSchema>,
  });
}
