import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { ADMIN_PASSWORD, ADMIN_USER, useTestServer } from '../support/server.js';
import { authParams, failsWith, ok, restUrl, subsonicOnce, type Credentials } from './support.js';
import { xsdErrors } from './xsd.js';

/**
 * Internet radio stations: the Admin keeps the household's list, every account sees it in its app.
 * Melon only stores the addresses; the app opens the stream.
 */
const t = useTestServer();
const admin: Credentials = { username: ADMIN_USER, password: ADMIN_PASSWORD };
let speaker: Credentials;

interface Station {
  id: string;
  name: string;
  streamUrl: string;
  homePageUrl?: string;
}
const stations = async (who: Credentials) =>
  (
    (await ok(t, who, 'getInternetRadioStations')) as unknown as {
      internetRadioStations: { internetRadioStation?: Station[] };
    }
  ).internetRadioStations.internetRadioStation ?? [];

/** Adding and deleting run once, in JSON: `ok` asks in both forms, which would do it twice. */
async function once(method: string, params: Record<string, string>): Promise<void> {
  const answer = await subsonicOnce(t, method, { ...authParams(admin), ...params }, 'json');
  expect(answer.status).toBe('ok');
}

beforeAll(async () => {
  const pass = await makeUser(t, { username: 'kitchen-speaker', role: 'Pass' });
  speaker = { username: pass.username, password: pass.password };
});

describe('internet radio stations', () => {
  it('starts with none', async () => {
    expect(await stations(speaker)).toEqual([]);
  });

  it('lets the Admin add a station that every account then lists, valid against the XSD', async () => {
    await once('createInternetRadioStation', {
      name: 'Jazz Night',
      streamUrl: 'https://radio.example.org/jazz.mp3',
      homepageUrl: 'https://radio.example.org/',
    });
    const listed = await stations(speaker);
    expect(listed).toEqual([
      {
        id: expect.any(String) as string,
        name: 'Jazz Night',
        streamUrl: 'https://radio.example.org/jazz.mp3',
        homePageUrl: 'https://radio.example.org/',
      },
    ]);
    const xml = await (
      await fetch(restUrl(t, 'getInternetRadioStations', { u: ADMIN_USER, p: ADMIN_PASSWORD }))
    ).text();
    expect(await xsdErrors(xml)).toBe('');
  });

  it('refuses addresses that are not http(s) or hold a password, and adds nothing', async () => {
    const refused: Array<[string, Record<string, string>]> = [
      ['streamUrl', { name: 'Bad', streamUrl: 'javascript:alert(1)' }],
      ['streamUrl', { name: 'Bad', streamUrl: 'file:///etc/passwd' }],
      ['streamUrl', { name: 'Bad', streamUrl: 'not an address' }],
      ['streamUrl', { name: 'Bad', streamUrl: 'http://member:secret@radio.example.org/live' }],
      ['streamUrl', { name: 'Bad', streamUrl: `https://radio.example.org/${'a'.repeat(2100)}` }],
      [
        'homepageUrl',
        { name: 'Bad', streamUrl: 'https://radio.example.org/a', homepageUrl: 'ftp://x.example' },
      ],
      ['name', { name: ' ', streamUrl: 'https://radio.example.org/a' }],
    ];
    for (const [parameter, params] of refused)
      expect(await failsWith(t, admin, 'createInternetRadioStation', params, 0), parameter).toContain(
        parameter,
      );
    await failsWith(t, admin, 'createInternetRadioStation', { name: 'No stream' }, 10);
    expect(await stations(admin)).toHaveLength(1);
  });

  it('changes and deletes a station; an unknown id is 70', async () => {
    const [station] = await stations(admin);
    await ok(t, admin, 'updateInternetRadioStation', {
      id: station!.id,
      name: 'Jazz All Night',
      streamUrl: 'http://radio.example.org:8000/jazz',
    });
    expect(await stations(speaker)).toEqual([
      { id: station!.id, name: 'Jazz All Night', streamUrl: 'http://radio.example.org:8000/jazz' },
    ]);
    await failsWith(
      t,
      admin,
      'updateInternetRadioStation',
      { id: 'nothing', name: 'x', streamUrl: 'https://radio.example.org/x' },
      70,
    );
    await failsWith(t, admin, 'deleteInternetRadioStation', { id: 'nothing' }, 70);
    Object.assign(t, await t.restart());
    expect(await stations(speaker)).toHaveLength(1);
    await once('deleteInternetRadioStation', { id: station!.id });
    expect(await stations(speaker)).toEqual([]);
  });

  it('lets only the Admin change the list', async () => {
    const member = await makeUser(t, { username: 'member' });
    const params = { name: 'Mine', streamUrl: 'https://radio.example.org/mine' };
    await failsWith(
      t,
      { username: member.username, password: member.password },
      'createInternetRadioStation',
      params,
      50,
    );
    await failsWith(t, speaker, 'createInternetRadioStation', params, 50);
    expect(await stations(admin)).toEqual([]);
  });
});
