import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Checks HTTP responses against the server's OpenAPI document: the status must be one the
 * operation lists, the content type one of that response's, and a JSON body must fit its schema.
 * test/support/server.ts runs every response of the shared test client through this.
 */

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document that the checker and the tests read. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, OpenApiSchema>;
    responses?: Record<string, OpenApiResponse>;
    securitySchemes?: Record<string, Json>;
    headers?: Record<string, Json>;
  };
}

export interface OpenApiSchema {
  type?: string;
  $ref?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  enum?: unknown[];
  examples?: unknown[];
  default?: unknown;
  description?: string;
}

export interface OpenApiMedia {
  schema?: OpenApiSchema;
}

export interface OpenApiResponse {
  $ref?: string;
  description?: string;
  headers?: Record<string, Json>;
  content?: Record<string, OpenApiMedia>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  'x-roles': string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: OpenApiSchema }[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
}

const COMPONENTS_ID = 'https://melon.invalid/openapi/components.json';

/** `#/components/schemas/X` → a reference into the components schema that ajv knows. */
function rewriteRefs<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, item: unknown) =>
      key === '$ref' && typeof item === 'string'
        ? item.replace(/^#\/components\/schemas\//, `${COMPONENTS_ID}#/$defs/`)
        : item,
    ),
  ) as T;
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; literal: boolean }[];

  constructor(readonly doc: OpenApiDocument) {
    this.ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(doc.components.schemas) });
    this.templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
      literal: !template.includes('{'),
    }));
  }

  /** The operation for a request, or undefined when the document has none (unknown path or method). */
  operation(method: string, path: string): { template: string; operation: OpenApiOperation } | undefined {
    const bare = path.split('?')[0]!.split('#')[0]!;
    const verb = method.toLowerCase();
    const matches = this.templates
      .filter(({ template, pattern }) => pattern.test(bare) && this.doc.paths[template]?.[verb])
      // A literal path (`/api/playlists/create`) wins over a template (`/api/playlists/{id}`).
      .sort((a, b) => Number(b.literal) - Number(a.literal));
    const found = matches[0];
    return found && { template: found.template, operation: this.doc.paths[found.template]![verb]! };
  }

  /** The mismatches between a response and the document; empty when it fits. `body`: a JSON body's text. */
  mismatches(method: string, path: string, status: number, contentType: string, body: string): string[] {
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const found = this.operation(method, path);
    if (!found) {
      // Unknown paths and methods answer with problems (404 not_found, 405 method_not_allowed).
      if (mediaType === 'application/problem+json')
        return this.validate('problem', { $ref: '#/components/schemas/Problem' }, body);
      return mediaType && isJson(mediaType)
        ? [`the document has no operation ${method} ${path} but the server answered ${status} JSON`]
        : [];
    }
    const responses = found.operation.responses;
    let response = responses[String(status)] ?? responses.default;
    if (!response) {
      return [
        `status ${status} is not listed for ${method.toUpperCase()} ${found.template} (it lists ${Object.keys(responses).join(', ')})`,
      ];
    }
    if (response.$ref !== undefined) {
      const name = response.$ref.replace('#/components/responses/', '');
      response = this.doc.components.responses?.[name];
      if (!response) return [`unresolved response reference ${name}`];
    }
    const content = response.content ?? {};
    const declared = Object.keys(content);
    if (declared.length === 0) {
      return mediaType
        ? [`status ${status} has no body in the document, but a ${mediaType} body was sent`]
        : [];
    }
    const entry = Object.entries(content).find(([type]) =>
      type.endsWith('/*') ? mediaType.startsWith(type.slice(0, -1)) : type === mediaType,
    );
    if (!entry) return [`content type '${contentType}' is not one of ${declared.join(', ')}`];
    const [type, media] = entry;
    if (!isJson(type) || !media.schema) return [];
    return this.validate(`${method} ${found.template} ${status} ${type}`, media.schema, body);
  }

  private validate(key: string, schema: OpenApiSchema, body: string): string[] {
    let validator = this.validators.get(key);
    if (!validator) {
      validator = this.ajv.compile(rewriteRefs(schema));
      this.validators.set(key, validator);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [`the body is not JSON: ${body.slice(0, 200)}`];
    }
    if (validator(value)) return [];
    return (validator.errors ?? []).map(
      (error) =>
        `${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}${
          error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''
        }`,
    );
  }
}

const checkers = new WeakMap<OpenApiDocument, ResponseChecker>();

/** The checker of a document (made once per document). */
export function responseChecker(doc: OpenApiDocument): ResponseChecker {
  let checker = checkers.get(doc);
  if (!checker) {
    checker = new ResponseChecker(doc);
    checkers.set(doc, checker);
  }
  return checker;
}

/** Why a response does not fit the document; thrown by `checkResponse`. */
export class ResponseMismatchError extends Error {
  override name = 'ResponseMismatchError';
}

/**
 * Validates a response against the document's schema for its status; throws a
 * ResponseMismatchError naming every mismatch. The response itself stays unread (a clone is read).
 */
export async function checkResponse(
  doc: OpenApiDocument,
  method: string,
  path: string,
  response: Response,
): Promise<void> {
  const verb = method.toUpperCase();
  if (verb === 'HEAD' || verb === 'OPTIONS') return;
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  // Only JSON bodies are read; the others are checked by their content type alone.
  const body = isJson(mediaType) ? await response.clone().text() : '';
  const problems = responseChecker(doc).mismatches(verb, path, response.status, contentType, body);
  if (problems.length === 0) return;
  throw new ResponseMismatchError(
    [
      `${verb} ${path} answered ${response.status} (${contentType || 'no content type'}), which does not fit the OpenAPI document:`,
      ...problems.slice(0, 12).map((problem) => `  - ${problem}`),
      ...(problems.length > 12 ? [`  - and ${problems.length - 12} more`] : []),
      ...(body ? [`  body: ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`] : []),
    ].join('\n'),
  );
}
