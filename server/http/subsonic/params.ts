import { missingParameter, SubsonicError, SUBSONIC_CODES } from './errors.js';

/** A parameter's values as they arrived: query string first, then the form body; repeats kept. */
export type RawSubsonicParams = Record<string, string[]>;

/** Collects the query string and a form body (`formPost`) into lists of strings per name. */
export function collectParams(query: Record<string, unknown>, body: unknown): RawSubsonicParams {
  const out = Object.create(null) as RawSubsonicParams;
  const take = (source: unknown) => {
    if (!source || typeof source !== 'object' || Array.isArray(source)) return;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      const values = (Array.isArray(value) ? (value as unknown[]) : [value]).filter(
        (item): item is string | number | boolean =>
          typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean',
      );
      if (values.length > 0) (out[key] ??= []).push(...values.map(String));
    }
  };
  take(query);
  take(body);
  return out;
}

const invalid = (name: string, rule: string) =>
  new SubsonicError(SUBSONIC_CODES.generic, `Parameter '${name}' ${rule}`);

/** Typed reads of a request's Subsonic parameters. A missing required one is error 10. */
export class SubsonicParams {
  constructor(private readonly raw: RawSubsonicParams) {}

  has(name: string): boolean {
    return (this.raw[name]?.length ?? 0) > 0;
  }

  /** The first value, or undefined; an empty value counts as given (search3 takes `query=`). */
  string(name: string): string | undefined {
    return this.raw[name]?.[0];
  }

  required(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw missingParameter(name);
    return value;
  }

  /** Every value of a parameter given several times (`id=1&id=2`), empty ones dropped. */
  list(name: string): string[] {
    return (this.raw[name] ?? []).filter((value) => value !== '');
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.string(name);
    if (value === undefined || value === '') return fallback;
    return parseInteger(name, value, min, max);
  }

  optionalInt(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    return value === undefined || value === '' ? undefined : parseInteger(name, value, min, max);
  }

  requiredInt(name: string, min: number, max: number): number {
    return parseInteger(name, this.required(name), min, max);
  }

  intList(name: string, min: number, max: number): number[] {
    return this.list(name).map((value) => parseInteger(name, value, min, max));
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.string(name)?.trim().toLowerCase();
    if (value === undefined || value === '') return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw invalid(name, 'must be true or false');
  }
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^[+-]?\d{1,16}$/.test(value.trim())) throw invalid(name, 'must be an integer');
  const number = Number(value.trim());
  if (number < min || number > max) throw invalid(name, `must be between ${min} and ${max}`);
  return number;
}
