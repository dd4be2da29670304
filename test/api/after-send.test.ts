import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRoutes } from '../support/route-app.js';

/**
 * A reply's after-send step (the update install) runs once, whether the response went out or the
 * client went away first, even while the handler was still working.
 */
let served: Awaited<ReturnType<typeof serveRoutes>>;
let port: number;
let entered: () => void = () => undefined;
let release: () => void = () => undefined;
const ran: string[] = [];

beforeAll(async () => {
  served = await serveRoutes([
    {
      method: 'GET',
      group: 'server',
      path: '/slow/:name',
      access: 'public',
      handler: async ({ path }) => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return { body: { ok: true }, afterSend: () => void ran.push(path['name']!) };
      },
    },
  ]);
  port = served.port;
});
afterAll(() => served.close());

const handlerEntered = () => new Promise<void>((resolve) => (entered = resolve));
const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('after-send steps', () => {
  it('run once after a response the client received', async () => {
    const inHandler = handlerEntered();
    const response = fetch(`http://127.0.0.1:${port}/slow/answered`);
    await inHandler;
    release();
    expect((await response).status).toBe(200);
    await until(() => ran.includes('answered'));
    expect(ran.filter((name) => name === 'answered')).toEqual(['answered']);
  });

  it('run once when the client went away while the handler was still working', async () => {
    const inHandler = handlerEntered();
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /slow/gone HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await inHandler;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
    // Let the server see the close before the handler answers.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await until(() => ran.includes('gone'));
    expect(ran.filter((name) => name === 'gone')).toEqual(['gone']);
  });
});
