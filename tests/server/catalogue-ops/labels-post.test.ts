import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { M, T, V } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { createProduct, UNKNOWN_ID } from '../support/products.js';
import { EVERY_ANSWER } from '../support/security-headers.js';
import { tempDir } from '../support/temp-dirs.js';

const run = promisify(execFile);

/** The pages of a PDF, as poppler's pdfinfo counts them. */
async function pageCount(pdf: Buffer) {
  const dir = await tempDir('stockroom-labels-post-');
  await writeFile(path.join(dir, 'labels.pdf'), pdf);
  const { stdout } = await run('pdfinfo', ['labels.pdf'], { cwd: dir });
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** What every answer carries, the HTTP layer's refusals included, and API answers' no-store. */
const API_ANSWER = { ...EVERY_ANSWER, 'cache-control': 'no-store' };

describe('labels of a long selection, by POST', async () => {
  const server = await build();
  const user = await signIn(server);
  const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const products = [
    await createProduct(server, user, { name: 'Ruler', barcode: '4006381333931' }),
    await createProduct(server, user, { name: 'Chair', sku: 'CH-1', barcode: 'CH-1' }),
  ];
  // A thousand labels, as "Select all" on a large list would ask for (ids may repeat).
  const thousand = Array.from({ length: 1_000 }, (_, i) => products[i % 2]!.id);
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/products/labels.pdf`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  // A thousand labels take a few seconds of CPU: more on a busy machine.
  it(
    'prints 1,000 labels from a JSON body, where the same ids in an address are refused',
    {
      timeout: 120_000,
    },
    async () => {
      const res = await post({ ids: thousand, layout: 'avery-5160', copies: 1, skip: 3 });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await res.arrayBuffer());
      // 3 cells skipped, then 1,000 labels at 30 a sheet.
      expect(await pageCount(pdf)).toBe(Math.ceil(1_003 / 30));

      const tooLong = await fetch(`${base}/api/products/labels.pdf?ids=${thousand.join(',')}`, {
        headers: user.headers,
      });
      expect(tooLong.status).toBe(431);
      expect(Object.fromEntries(tooLong.headers)).toMatchObject(API_ANSWER);
      expect(tooLong.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await tooLong.json()).toEqual({ message: M.headersTooLarge });
    },
  );

  it('takes the defaults of GET: one copy, an A4 sheet, nothing skipped', async () => {
    const res = await post({ ids: [products[1]!.id] });
    expect(res.status).toBe(200);
    expect(await pageCount(Buffer.from(await res.arrayBuffer()))).toBe(1);
  });

  it('makes at most 1,000 labels, copies included', async () => {
    const res = await post({ ids: thousand.slice(0, 501), copies: 2 });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: M.tooManyLabels });
  });

  it("answers 404 and makes nothing for another user's id or an unknown one", async () => {
    const other = await signIn(server);
    const theirs = await createProduct(server, other);
    for (const stranger of [theirs.id, UNKNOWN_ID, 'not-a-uuid']) {
      const res = await post({ ids: [products[0]!.id, stranger] });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: M.labelsNotFound });
    }
  });

  it('refuses a bad body with the field that is wrong', async () => {
    const id = products[0]!.id;
    for (const [body, field, message] of [
      [{}, 'ids', V.labelIdListInvalid],
      [{ ids: id }, 'ids', V.labelIdListInvalid],
      [{ ids: [] }, 'ids', V.labelIdListInvalid],
      [{ ids: [id, ''] }, 'ids', V.labelIdListInvalid],
      [{ ids: [...thousand, id] }, 'ids', V.labelIdListInvalid],
      [{ ids: [id], layout: 'a4' }, 'layout', V.labelLayoutInvalid],
      [{ ids: [id], copies: 0 }, 'copies', V.labelCopiesInvalid],
      [{ ids: [id], copies: 1.5 }, 'copies', V.labelCopiesInvalid],
      [{ ids: [id], skip: 21 }, 'skip', T.labelSkipInvalid(20)],
      [{ ids: [id], layout: 'brother-62mm', skip: 1 }, 'skip', T.labelSkipInvalid(0)],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = (await res.json()) as { errors?: { path: string; message: string }[] };
      expect(answer.errors?.[0]?.path.split('.')[0], JSON.stringify(body).slice(0, 80)).toBe(field);
      expect(answer.errors?.[0]?.message).toBe(message);
    }
  });
});
