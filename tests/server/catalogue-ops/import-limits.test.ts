import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX, IMPORT_MAX_CELLS } from '../../../src/shared/constants.js';
import { T } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { csvText, importCsv } from '../support/products.js';

const HEADER = 'name,price,stock,description\n';
const MiB = 1024 * 1024;

/** CPU time the test process spends on `work` (the server runs in it), in milliseconds. */
async function cpuMs<T>(work: () => Promise<T>) {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

/**
 * A record is read into memory whole before it can be checked: without bounds, one record of ten
 * million empty cells costs hundreds of megabytes, and a 10 MB line with no break seconds of CPU.
 * Both are refused as soon as a record passes its bounds, at the line it starts on.
 */
describe('bounds on one CSV record', async () => {
  const server = await build();
  const user = await signIn(server);

  it('refuses a record of millions of empty cells at its line, early', async () => {
    const csv = HEADER + 'Lamp,1.00,1,ok\n' + ','.repeat(10 * MiB - 100);
    const { result: res, ms } = await cpuMs(() => importCsv(server, user, csv, 'dryRun=true'));
    expect(res.statusCode).toBe(400);
    const message = T.importTooManyCells(3);
    expect(res.json()).toEqual({
      message,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [{ line: 3, path: 'file', message }],
    });
    expect(message).toContain('Line 3');
    expect(ms).toBeLessThan(1_500);
  });

  it('refuses a 10 MB first line without a line break at line 1, early', async () => {
    const csv = 'name,price,stock,description' + 'x'.repeat(10 * 1000 * 1000 - 100);
    const { result: res, ms } = await cpuMs(() => importCsv(server, user, csv, 'dryRun=true'));
    expect(res.statusCode).toBe(400);
    const message = T.importRecordTooLong(1);
    expect(res.json()).toEqual({
      message,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [{ line: 1, path: 'file', message }],
    });
    expect(ms).toBeLessThan(1_500);
  });

  it('refuses one quoted field that never ends before its bound, at its line', async () => {
    const csv = HEADER + 'Lamp,1.00,1,ok\n' + 'Rug,1.00,1,"' + 'y\n'.repeat(2 * MiB);
    const res = await importCsv(server, user, csv, 'dryRun=true');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { line: 3, path: 'file', message: T.importRecordTooLong(3) },
    ]);
  });

  it('still takes the largest rows a product can hold, and wide ones', async () => {
    // Every character of the description a 4-byte one, or a quote (written twice).
    const emoji = '😀'.repeat(DESCRIPTION_MAX);
    const quotes = '"'.repeat(DESCRIPTION_MAX);
    const wide = Array.from({ length: IMPORT_MAX_CELLS - 4 }, () => '');
    const csv = csvText([
      ['name', 'price', 'stock', 'description', ...wide],
      ['Smiles', '1.00', '1', emoji, ...wide],
      ['Quotes', '1.00', '1', quotes, ...wide],
    ]);
    const res = await importCsv(server, user, csv, 'dryRun=true');
    expect(res.json()).toMatchObject({ created: 2, errors: [] });
    expect(res.statusCode).toBe(200);
  });
});
