import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { byIdEndpoint, type Request } from '../../../server/http/endpoint.js';
import { AppError } from '../../../server/errors.js';
import { makeUserRecord, principalOf } from '../../factories/accounts.js';

const caller = principalOf(makeUserRecord({ id: 'u1', username: 'ann' }));

function requestFor(id: string, params: Record<string, unknown> = {}): Request {
  return {
    params,
    path: { id },
    principal: caller,
    clientAddress: '127.0.0.1',
    files: {},
    ifNoneMatch: null,
    method: 'GET',
    header: () => null,
  };
}

describe('byIdEndpoint', () => {
  const thing = byIdEndpoint({
    summary: 'A thing',
    params: { size: z.coerce.number().int().default(1) },
    response: z.object({ id: z.string(), owner: z.string(), size: z.number() }),
    notFound: 'thing_not_found',
    handle: (who, id, params) => ({ id, owner: who.username ?? '', size: params.size }),
  });

  it('answers what its id names, for the caller, with the validated parameters', async () => {
    expect(await thing.handler(requestFor('t9', { size: '3' }))).toEqual({
      status: 200,
      body: { id: 't9', owner: 'ann', size: 3 },
    });
  });

  it('documents the id of its path and the 404 the id may give', () => {
    expect(Object.keys(thing.doc.path)).toEqual(['id']);
    expect(thing.doc.errors).toEqual({ 404: ['thing_not_found'] });
    expect(Object.keys(thing.doc.params)).toEqual(['size']);
  });

  it('refuses an empty id with a 400 before the service is asked', () => {
    expect(() => thing.handler(requestFor(''))).toThrow(AppError);
  });
});
