import { z } from 'zod';
import { parseIsoDate } from '../domain/dates.js';
import { invalidParameter } from '../errors.js';

/**
 * Request parameters as they arrive: query string merged with the body (the body wins), empty
 * values dropped (docs/API.md, Conventions: `device=` counts as absent). A parameter given twice takes its first
 * value, so `?id=a&id=b` means `id=a`.
 */
export type RawParams = Record<string, unknown>;

export function mergeParams(query: Record<string, unknown>, body: unknown): RawParams {
  // No prototype: a parameter named `__proto__` is then just an unknown key, not the object's parent.
  const merged = Object.create(null) as RawParams;
  const take = (source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) {
      const first = Array.isArray(value) && !LIST_KEYS.has(key) ? (value as unknown[])[0] : value;
      if (first === undefined || first === null || first === '') continue;
      merged[key] = first;
    }
  };
  take(query);
  if (body && typeof body === 'object' && !Array.isArray(body)) take(body as Record<string, unknown>);
  return merged;
}

/** Parameters that are lists by nature keep every value. */
const LIST_KEYS = new Set(['trackIds']);

const scalarText = (value: unknown) =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

/** A string of 1–`max` characters. */
export const text = (max: number) =>
  z.preprocess(
    scalarText,
    z.string({ error: 'must be a string' }).min(1).max(max, `must have at most ${max} characters`),
  );

/**
 * An id parameter (docs/API.md, Conventions): an id of the wrong shape, whatever its length, is a 404 of the
 * resource (the service judges it), so only "a non-empty string" is checked here.
 */
export const id = () => z.preprocess(scalarText, z.string({ error: 'must be a string' }).min(1));

/**
 * An item's id in the route path; a malformed id is a 404 of that item (docs/API.md, Conventions). A plain string
 * schema: path segments are always strings, and the OpenAPI document counts a path of plain strings
 * as one that cannot fail validation (no 400).
 */
export const idPath = { id: z.string().min(1) };

/** An integer in [min, max]; `"7"`, `7` are fine, `"7.5"`, `"7a"`, `"1e3"` are not. */
export const integer = (min: number, max: number) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' && /^[+-]?\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value,
    z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

export const boolean = () =>
  z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const lower = value.trim().toLowerCase();
      return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : value;
    },
    z.boolean({ error: 'must be true or false' }),
  );

/** An ISO 8601 date or date-time (docs/API.md, Conventions), as epoch milliseconds. */
export const isoDate = () =>
  z
    .preprocess(
      (value) => {
        if (typeof value !== 'string' || value.length > 64) return Number.NaN;
        return parseIsoDate(value) ?? Number.NaN;
      },
      z.number({ error: 'must be an ISO 8601 date such as 2026-11-01 or 2026-11-01T20:15:00Z' }),
    )
    .meta({
      // What clients send; the schema above describes the parsed value.
      type: 'string',
      maxLength: 64,
      description:
        "ISO 8601 date (the server's local midnight), date-time without offset (server's local time) or with Z/±HH:MM",
      examples: ['2026-11-01', '2026-11-01T20:15:00Z'],
    });

/** A list of strings: JSON array, repeated parameter, or comma-separated. */
export const stringList = (maxItems: number, maxLength: number) =>
  z
    .preprocess(
      (value) =>
        typeof value === 'string'
          ? value
              .split(',')
              .map((item) => item.trim())
              .filter(Boolean)
          : value,
      z
        .array(z.string().min(1).max(maxLength), { error: 'must be a list of strings' })
        .max(maxItems, `must have at most ${maxItems} items`),
    )
    .meta({ description: 'A JSON array, a repeated parameter or a comma-separated list' });

/** `page` and `count` of every list endpoint (docs/API.md, Conventions). */
export const paging = {
  page: integer(0, 1_000_000).default(0).meta({ description: 'Page number, from 0; past the end is empty' }),
  count: integer(1, 1000).default(100).meta({ description: 'Items per page' }),
};

/** The library lists' parameters: a name search and paging. */
export const listQuery = {
  q: text(256).optional().meta({ description: 'A case-insensitive part of the name' }),
  ...paging,
};

/** Validates `raw` against `schema`; the first problem becomes a 400 naming the parameter. */
export function parseParams<S extends z.ZodRawShape>(
  schema: z.ZodObject<S>,
  raw: RawParams,
): z.output<z.ZodObject<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const parameter = String(issue.path[0] ?? 'body');
  const missing = issue.code === 'invalid_type' && raw[parameter] === undefined;
  throw invalidParameter(
    parameter,
    missing ? `Parameter '${parameter}' is required` : `Parameter '${parameter}' ${issue.message}`,
  );
}
