import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { send } from '../support/attacker.js';
import { useTestServer } from '../support/server.js';

/**
 * Parameter smuggling: a parameter given twice, in two places or in two shapes must mean one
 * defined thing (docs/API.md, Security: "Duplicate parameters"). The rules are shown on endpoints
 * that echo what they understood: user creation (username, role) and the stats reads (userId).
 */
let a: TestUser;
let b: TestUser;
let counter = 0;

const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({
      artists: [],
      albums: [{ id: 'al1' }],
      tracks: [{ id: 't1' }, { id: 't2' }, { id: 't3' }],
    }),
  ),
});

beforeAll(async () => {
  a = await makeUser(t, { role: 'Pass' });
  b = await makeUser(t, { role: 'Pass' });
});

/** Creates a user as the Admin from a query string and a body; answers what the server made. */
async function create(query: string, body?: { type: string; text: string }) {
  const response = await t.call(`/api/users/create${query ? `?${query}` : ''}`, {
    method: 'POST',
    token: t.adminToken,
    headers: body ? { 'content-type': body.type } : {},
    body: body?.text,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const form = (text: string) => ({ type: 'application/x-www-form-urlencoded', text });
const json = (text: string) => ({ type: 'application/json', text });
const fresh = (prefix: string) => `${prefix}-${++counter}`;
const PW = 'password=long-enough-pw';

describe('a parameter given twice', () => {
  it('in the query string: the first value wins', async () => {
    const [first, second] = [fresh('q1'), fresh('q2')];
    const made = await create(`username=${first}&username=${second}&${PW}&role=Pass&role=Admin`);
    expect(made).toMatchObject({ status: 201, body: { username: first, role: 'Pass' } });
  });

  it('in a form body: the first value wins, bracketed or not', async () => {
    const [first, second] = [fresh('f1'), fresh('f2')];
    const made = await create('', form(`username=${first}&username=${second}&${PW}&role=Pass&role=Admin`));
    expect(made).toMatchObject({ status: 201, body: { username: first, role: 'Pass' } });
    const [third, fourth] = [fresh('f3'), fresh('f4')];
    const bracketed = await create('', form(`username[]=${third}&username[]=${fourth}&${PW}`));
    expect(bracketed).toMatchObject({ status: 201, body: { username: third } });
  });

  it('in a JSON body: a repeated key keeps its last value (JSON parsing), an array its first item', async () => {
    const [first, second] = [fresh('j1'), fresh('j2')];
    const repeated = await create(
      '',
      json(
        `{"username":"${first}","username":"${second}","password":"long-enough-pw","role":"Admin","role":"Pass"}`,
      ),
    );
    expect(repeated).toMatchObject({ status: 201, body: { username: second, role: 'Pass' } });
    const [third, fourth] = [fresh('j3'), fresh('j4')];
    const listed = await create(
      '',
      json(
        JSON.stringify({ username: [third, fourth], password: 'long-enough-pw', role: ['Pass', 'Admin'] }),
      ),
    );
    expect(listed).toMatchObject({ status: 201, body: { username: third, role: 'Pass' } });
  });

  it('in the query and the body: the body wins, whatever the order of the values', async () => {
    const [inQuery, inBody] = [fresh('query'), fresh('body')];
    const made = await create(`username=${inQuery}&role=Admin`, form(`username=${inBody}&${PW}&role=Pass`));
    expect(made).toMatchObject({ status: 201, body: { username: inBody, role: 'Pass' } });
    const [q2, b2] = [fresh('query'), fresh('body')];
    const viaJson = await create(
      `username=${q2}&role=Admin`,
      json(`{"username":"${b2}","password":"long-enough-pw","role":"Pass"}`),
    );
    expect(viaJson).toMatchObject({ status: 201, body: { username: b2, role: 'Pass' } });
  });

  it('with an empty value: empty is absent, so an empty body value leaves the query value', async () => {
    const inQuery = fresh('kept');
    const made = await create(`username=${inQuery}&role=Pass`, form(`username=&${PW}&role=`));
    expect(made).toMatchObject({ status: 201, body: { username: inQuery, role: 'Pass' } });
  });

  it('with an empty first value: the first value still wins, and the parameter is absent', async () => {
    const made = await create(`username=&username=${fresh('second')}&${PW}`);
    expect(made).toMatchObject({ status: 400, body: { code: 'invalid_parameter', parameter: 'username' } });
  });

  it('on a GET: the first value wins (whose statistics are read)', async () => {
    const response = await t.call(`/api/stats/listening-time?userId=${a.id}&userId=${b.id}`, {
      token: t.adminToken,
    });
    expect(await response.json()).toMatchObject({ userId: a.id });
  });

  it('as a list parameter: every value is kept, in order; a list in the body replaces the query one', async () => {
    const response = await t.call(`/api/playlists/create?trackIds=t3&name=${fresh('mix')}`, {
      method: 'POST',
      token: t.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'trackIds=t2&trackIds=t1&trackIds=t2',
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { trackIds: string[] }).trackIds).toEqual(['t2', 't1', 't2']);
  });
});

describe('parameters in other shapes', () => {
  it('names are case-sensitive: Username is not username', async () => {
    const made = await create(`Username=${fresh('case')}&${PW}`);
    expect(made).toMatchObject({ status: 400, body: { parameter: 'username' } });
  });

  it('a form object where a value belongs is a 400, not a coerced value', async () => {
    const made = await create('', form(`username[name]=${fresh('obj')}&${PW}`));
    expect(made).toMatchObject({ status: 400, body: { code: 'invalid_parameter', parameter: 'username' } });
  });

  it('a __proto__ key in JSON is refused as an invalid body; prototype keys of a form are dropped', async () => {
    const poisoned = await create(
      '',
      json(`{"username":"${fresh('proto')}","password":"long-enough-pw","__proto__":{"role":"Admin"}}`),
    );
    expect(poisoned).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    const viaConstructor = fresh('proto');
    const harmless = await create(
      '',
      json(
        `{"username":"${viaConstructor}","password":"long-enough-pw","constructor":{"prototype":{"role":"Admin"}}}`,
      ),
    );
    expect(harmless).toMatchObject({ status: 201, body: { username: viaConstructor, role: 'User' } });
    const name = fresh('proto');
    const dropped = await create(
      '',
      form(`username=${name}&${PW}&__proto__[role]=Admin&constructor[prototype][role]=Admin`),
    );
    expect(dropped).toMatchObject({ status: 201, body: { username: name, role: 'User' } });
  });

  it('a body of another type (text/plain, the type a foreign form may send) is not read at all', async () => {
    const made = await create('', { type: 'text/plain', text: `username=${fresh('plain')}&${PW}` });
    expect(made).toMatchObject({ status: 400, body: { code: 'invalid_parameter', parameter: 'username' } });
  });
});

describe('headers given twice', () => {
  it('Authorization: the first one counts', async () => {
    const twice = (first: string, second: string) =>
      send(t.url, {
        path: '/api/users',
        headers: [
          ['Authorization', `Bearer ${first}`],
          ['Authorization', `Bearer ${second}`],
        ],
      });
    const passFirst = await twice(a.token, t.adminToken);
    expect(passFirst.status).toBe(401);
    expect(passFirst.json()).toMatchObject({ code: 'forbidden_role' });
    expect((await twice(t.adminToken, a.token)).status).toBe(200);
  });
});
