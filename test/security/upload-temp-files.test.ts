import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useChildAsAdmin } from '../support/child-server.js';

/**
 * A multipart upload refused with 413 must not leave its first file (up to 20 MiB) in the temp
 * folder. The server runs in its own process with TMPDIR pointing at a folder of this
 * test's, so every temp file it makes is seen; after each request, however it ended, none is left.
 */
const MIB = 1024 * 1024;
const PNG = await readFile(new URL('../../server/assets/default-art.png', import.meta.url));

let temp: string;
const child = useChildAsAdmin('melon-upload-temp-', async ({ root }) => {
  temp = join(root, 'tmp');
  await mkdir(temp);
  return { TMPDIR: temp };
});

/**
 * What is left in the server's temp folder once the request has had time to finish, but for tsx's
 * compile cache (the child runs from source).
 */
async function leftovers(): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const names = (await readdir(temp)).filter((name) => !name.startsWith('tsx-'));
  // Each test starts clean, whatever an earlier one left.
  await Promise.all(names.map((name) => rm(join(temp, name), { recursive: true, force: true })));
  return names;
}

function upload(files: Blob[]) {
  const body = new FormData();
  for (const [i, file] of files.entries()) body.append('file', file, `f${i}.png`);
  return fetch(`${child.server.url}/api/art/upload/default-art`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${child.adminToken}` },
    body,
  });
}

describe('temp files of uploads', () => {
  it('are removed when the upload is over 20 MiB (413)', async () => {
    const response = await upload([new Blob([PNG, Buffer.alloc(21 * MIB)], { type: 'image/png' })]);
    expect(response.status).toBe(413);
    expect(await leftovers()).toEqual([]);
  });

  it('are removed when the upload has more than one file (413): the first one too', async () => {
    const response = await upload([new Blob([PNG]), new Blob([PNG])]);
    expect(response.status).toBe(413);
    expect(await leftovers()).toEqual([]);
  });

  it('are removed when the client goes away mid-upload', async () => {
    const { hostname, port } = new URL(child.server.url);
    const boundary = 'melon-boundary';
    await new Promise<void>((resolve) => {
      const req = request({
        host: hostname,
        port,
        method: 'POST',
        path: '/api/art/upload/default-art',
        headers: {
          Authorization: `Bearer ${child.adminToken}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(10 * MIB),
        },
      });
      req.on('error', () => resolve());
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      );
      req.write(PNG);
      req.write(Buffer.alloc(MIB));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    expect(await leftovers()).toEqual([]);
  });

  it('are removed after an accepted upload and after a refused one (415)', async () => {
    expect((await upload([new Blob([PNG])])).status).toBe(201);
    expect((await upload([new Blob(['<svg/>'])])).status).toBe(415);
    expect(await leftovers()).toEqual([]);
  });
});
