import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/services/passwords.js';
import { ROOT, runCommand } from '../../support/run-command.js';
import type * as ScryptThread from '../../../server/services/scrypt-thread.js';

const hashes = vi.hoisted(() => ({ made: 0 }));
vi.mock('../../../server/services/scrypt-thread.js', async (original) => {
  const actual = await original<typeof ScryptThread>();
  return {
    scryptKey: (...args: Parameters<typeof actual.scryptKey>) => {
      hashes.made += 1;
      return actual.scryptKey(...args);
    },
  };
});

/** The nice value of each of this process's threads, by thread id (Linux). */
function niceValues(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    // Fields after the command's closing parenthesis; the nice value is the 19th field of stat.
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

describe('password hashing', () => {
  it('verifies each of several hashes made at once, and refuses a wrong or differently spelled password', async () => {
    const passwords = ['correct horse', 'battery staple', 'Ünïcödé påsswörd', 'x'.repeat(200)];
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    const checks = await Promise.all(
      passwords.flatMap((p, i) => [verifyPassword(p, hashes[i]!), verifyPassword(p, hashes[(i + 1) % 4]!)]),
    );
    expect(checks).toEqual([true, false, true, false, true, false, true, false]);
    // The same text in another Unicode form is the same password.
    expect(
      await verifyPassword('U\u0308ni\u0308co\u0308de\u0301 påsswörd'.normalize('NFD'), hashes[2]!),
    ).toBe(true);
    expect(await verifyPassword('correct horse ', hashes[0]!)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'hashes in a thread of lower priority, leaving the event loop’s own as it was',
    async () => {
      const before = niceValues();
      await hashPassword('any');
      const after = niceValues();
      expect(after.get(process.pid)).toBe(before.get(process.pid));
      const lowered = [...after].filter(([tid, nice]) => tid !== process.pid && nice === 10);
      expect(lowered.length).toBeGreaterThanOrEqual(1);
    },
  );

  it('finishes a hash that is all a process waits for (a command line tool), and then lets it exit', async () => {
    const script = join(await mkdtemp(join(tmpdir(), 'melon-hash-')), 'hash.mts');
    const passwords = pathToFileURL(join(ROOT, 'server', 'services', 'passwords.ts')).href;
    await writeFile(
      script,
      `const { hashPassword, verifyPassword } = await import('${passwords}');\n` +
        `console.log(await verifyPassword('pw', await hashPassword('pw')));\n`,
    );
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const result = await runCommand(process.execPath, [tsx, script], {}, 30_000);
    expect(result).toMatchObject({ code: 0, stdout: 'true\n' });
  });

  it('makes a check asked for several times at once only once, and again once it is done', async () => {
    const stored = await hashPassword('same');
    const before = hashes.made;
    const results = await Promise.all([
      verifyPassword('same', stored),
      verifyPassword('same', stored),
      verifyPassword('other', stored),
      verifyPassword('same', stored),
    ]);
    expect(results).toEqual([true, true, false, true]);
    expect(hashes.made - before).toBe(2);
    expect(await verifyPassword('same', stored)).toBe(true);
    expect(hashes.made - before).toBe(3);
  });
});
