import { describe, expect, it } from 'vitest';
import type { Count } from '../../../src/shared/schemas/counts/counts.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import type { SignedIn } from '../support/accounts.js';
import { pdfText } from '../support/printed-labels.js';
import { createProduct } from '../support/products.js';
import {
  addMember,
  api,
  member,
  newCatalogue,
  createIn,
  productOf,
} from '../catalogues/support.js';

const server = await build();

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, payload?: object) =>
  api(server, who, method, url, payload);

async function start(who: SignedIn, base: string, body: object) {
  const res = await call(who, 'POST', `${base}/counts`, body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { count: Count }).count;
}

describe('a count on paper and in a spreadsheet', () => {
  it('prints a sheet with each place, its barcode and an empty box; a blind one without expected', async () => {
    const user = await member(server);
    const res = await call(user, 'POST', '/api/locations', { name: 'Aisle 7', parentId: null });
    const aisle = (res.json() as { location: Location }).location;
    const cup = await createProduct(server, user, {
      name: 'Teacup Ω',
      stock: '1',
      sku: 'CUP-1',
      barcode: '4006381333931',
    });
    await call(user, 'POST', `/api/products/${cup.id}/stock`, { delta: 12, locationId: aisle.id });
    const open = await start(user, '/api', {
      name: 'Aisle seven',
      scope: { kind: 'location', locationId: aisle.id },
    });
    const sheet = await call(user, 'GET', `/api/counts/${open.id}/sheet.pdf`);
    expect(sheet.statusCode, sheet.body.slice(0, 200)).toBe(200);
    expect(sheet.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(sheet.rawPayload);
    expect(text).toContain('Aisle seven');
    expect(text).toContain('Teacup Ω');
    expect(text).toContain('SKU CUP-1');
    expect(text).toContain('Aisle 7');
    expect(text).toMatch(/\b12\b/);

    await call(user, 'POST', `/api/counts/${open.id}/cancel`);
    const blind = await start(user, '/api', {
      name: 'Blind aisle',
      scope: { kind: 'location', locationId: aisle.id },
      blind: true,
    });
    const blindSheet = await call(user, 'GET', `/api/counts/${blind.id}/sheet.pdf`);
    const blindText = await pdfText(blindSheet.rawPayload);
    expect(blindText).toContain('Teacup Ω');
    expect(blindText).toContain('blind count');
    expect(blindText).not.toMatch(/\b12\b/);
    const missing = await call(
      user,
      'GET',
      '/api/counts/00000000-0000-4000-8000-000000000000/sheet.pdf',
    );
    expect(missing.statusCode).toBe(404);
  });

  it('exports the lines as CSV, expected left empty for whom a blind count hides it', async () => {
    const owner = await member(server);
    const catalogue = await newCatalogue(server, owner);
    const viewer = await member(server);
    await addMember(server, catalogue.id, viewer, 'viewer');
    const base = `/api/catalogues/${catalogue.id}`;
    const cup = productOf(
      await createIn(server, owner, catalogue.id, { name: '=Cup', stock: '5' }),
    );
    const blind = await start(owner, base, { scope: { kind: 'catalogue' }, blind: true });
    await call(owner, 'POST', `${base}/counts/${blind.id}/lines`, {
      productId: cup.id,
      locationId: catalogue.id,
      counted: 4,
    });
    const asOwner = await call(owner, 'GET', `${base}/counts/${blind.id}.csv`);
    expect(asOwner.statusCode, asOwner.body).toBe(200);
    const [header, row] = asOwner.body.replace(/^\ufeff/, '').split('\r\n');
    expect(header).toBe(
      'productId,sku,barcode,name,location,expected,counted,variance,countedBy,countedAt',
    );
    expect(row).toContain(`${cup.id},,,'=Cup,Main,5,4,-1,`);
    const asViewer = await call(viewer, 'GET', `${base}/counts/${blind.id}.csv`);
    expect(asViewer.body.split('\r\n')[1]).toContain(`${cup.id},,,'=Cup,Main,,4,,`);
    // The count's own page still answers beside its CSV.
    expect((await call(owner, 'GET', `${base}/counts/${blind.id}`)).statusCode).toBe(200);
  });
});
