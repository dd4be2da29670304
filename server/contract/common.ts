import { z } from 'zod';

/**
 * The API's shared field schemas and the problem document. Every file of server/contract/ depends
 * on zod alone, so the server, the settings page (type imports) and the tests can share its shapes.
 * Each named shape carries an `id`, so the OpenAPI document lists it once under
 * `components.schemas`; endpoints validate their answers' types with these schemas (http/endpoint.ts
 * `endpoint`), and the API tests check every response against the document made from them.
 */

/** A date in a response: UTC, ISO 8601 with `Z` (docs/API.md, Conventions). */
export const utc = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/)
    .meta({ format: 'date-time', description: 'UTC, ISO 8601 with Z' });

/** A count or size in a response: an integer, 0 or more. */
export const count = () => z.int().min(0);

/**
 * `true` in every response (`deleted`, `logged`); the services type it as a boolean, so the
 * constant is stated for the document only.
 */
export const alwaysTrue = () => z.boolean().meta({ const: true });

export const problemSchema = z
  .object({
    type: z.literal('about:blank'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string().meta({ description: 'For people; clients switch on `code`.' }),
    code: z.string().meta({ description: 'The stable identifier of the problem.' }),
    parameter: z.string().optional().meta({ description: 'The offending parameter (400s).' }),
    requestId: z.string().optional().meta({ description: 'The request id of a 500, also in the log.' }),
  })
  .meta({ id: 'Problem', description: 'An RFC 9457 problem document.' });
export type Problem = z.output<typeof problemSchema>;

export const namedRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'NamedRef' });
export type NamedRef = z.output<typeof namedRef>;

/** One page of a list endpoint (docs/API.md, Conventions). */
export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({ items: z.array(item), page: count(), count: z.int().min(1), total: count() })
    .meta({ id, description: 'A page of a list, ordered by name.' });
export type Page<T> = z.output<ReturnType<typeof pageOf<z.ZodType<T>>>>;

/** The answer of a deletion by id (users, API keys). */
export const deletedSchema = z.object({ deleted: z.literal(true), id: z.string() });
export type Deleted = z.output<typeof deletedSchema>;
