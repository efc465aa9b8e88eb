import { describe, expect, it } from 'vitest';
import { LABEL_LAYOUTS, LABELS_PER_PAGE, type LabelLayout } from '../../../src/shared/labels.js';
import { M, T, V } from '../../../src/shared/messages.js';
import { cellBox, LAYOUTS } from '../../../src/server/features/catalogue-ops/labels/layouts.js';
import { build, type TestServer } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { multipart } from '../support/images.js';
import {
  createProduct,
  lookupCode,
  sendBody,
  UNKNOWN_ID,
  validFields,
} from '../support/products.js';
import { inkInside, inkOutside, printPdf, readCodes } from '../support/printed-labels.js';

const mm = (value: number) => (value * 72) / 25.4;
const inch = (value: number) => value * 72;

const getLabels = (server: TestServer, user: SignedIn, query: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/products/labels.pdf?${query}`,
    headers: user.headers,
  });

describe('product labels', async () => {
  const server = await build();
  const user = await signIn(server);
  // One of each kind of code a label prints: UPC-A, EAN-13, EAN-8, Code 128, and a QR code of the
  // product's page for a product without a barcode.
  const products = [
    await createProduct(server, user, {
      name: 'Desk lamp with a name far too long for any label, so it must be clamped somewhere',
      sku: 'LAMP-1',
      barcode: '0012345678905',
    }),
    await createProduct(server, user, { name: 'Ruler', barcode: '4006381333931', price: '2.5' }),
    await createProduct(server, user, { name: 'Eraser', sku: 'E-8', barcode: '96385074' }),
    await createProduct(server, user, { name: 'Café table', sku: 'T-9', barcode: 'SHELF-A12' }),
    await createProduct(server, user, { name: 'Chair', sku: 'CH-1', price: '1234.56' }),
  ];
  /**
   * The product a code read off a label leads to, as a scanner would find it: a product's page
   * for a QR code, a lookup for a barcode (a UPC-A may read back in its EAN-13 form).
   */
  const productOfCode = async (code: string) => {
    const page = `${server.config.publicUrl}/details/product/`;
    if (code.startsWith(page)) return code.slice(page.length);
    const res = await lookupCode(server, user, code);
    return res.statusCode === 200 ? (res.json().product.id as string) : `no product for ${code}`;
  };
  const ids = products.map((product) => product.id).join(',');

  it('places the sheets’ labels where the makers put them', () => {
    const l7160 = LAYOUTS['avery-l7160'];
    expect(l7160.page).toEqual({ width: mm(210), height: mm(297) });
    expect([l7160.columns, l7160.rows]).toEqual([3, 7]);
    expect(cellBox(l7160, 0)).toEqual({
      x: mm(7.25),
      y: mm(15.15),
      width: mm(63.5),
      height: mm(38.1),
    });
    const last = cellBox(l7160, 20);
    expect(last.x + last.width + mm(7.25)).toBeCloseTo(mm(210), 6);
    expect(last.y + last.height + mm(15.15)).toBeCloseTo(mm(297), 6);
    const l5160 = LAYOUTS['avery-5160'];
    expect(l5160.page).toEqual({ width: inch(8.5), height: inch(11) });
    expect([l5160.columns, l5160.rows]).toEqual([3, 10]);
    expect(cellBox(l5160, 29)).toEqual({
      x: inch(0.1875 + 2 * 2.75),
      y: inch(0.5 + 9),
      width: inch(2.625),
      height: inch(1),
    });
    expect(LAYOUTS['brother-62mm'].page.width).toBeCloseTo(mm(62), 6);
    expect(LAYOUTS['label-2x1in'].page).toEqual({ width: inch(2), height: inch(1) });
  });

  it.each(LABEL_LAYOUTS)(
    '%s: every label reads back as its product’s code, inside its cell',
    async (layout: LabelLayout) => {
      const perPage = LABELS_PER_PAGE[layout];
      const skip = perPage > 1 ? 2 : 0;
      const res = await getLabels(server, user, `ids=${ids}&layout=${layout}&skip=${skip}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(/^inline; filename=".+\.pdf"$/);
      // Vector output: no picture in the file, the bars and modules are paths.
      expect(res.rawPayload.includes('/Subtype /Image')).toBe(false);
      const pages = await printPdf(res.rawPayload);
      expect(pages).toHaveLength(Math.ceil((skip + products.length) / perPage));
      const layoutBoxes = LAYOUTS[layout];
      for (const [index, product] of products.entries()) {
        const cell = skip + index;
        const page = pages[Math.floor(cell / perPage)]!;
        const box = cellBox(layoutBoxes, cell % perPage);
        const read = await readCodes(page, box);
        expect(read, `${layout} label ${index}`).toHaveLength(1);
        expect(await productOfCode(read[0]!), `${layout} label ${index}`).toBe(product.id);
      }
      for (const [number, page] of pages.entries()) {
        const cells = Array.from({ length: perPage }, (_, cell) => cellBox(layoutBoxes, cell));
        expect(inkOutside(page, cells), `${layout} page ${number + 1}`).toBe(0);
      }
      // The cells skipped on a partly used sheet stay blank.
      for (let cell = 0; cell < skip; cell += 1) {
        expect(inkInside(pages[0]!, cellBox(layoutBoxes, cell))).toBe(0);
      }
    },
  );

  it("links a shared catalogue's QR codes to the product's page in that catalogue", async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/catalogues',
      headers: user.headers,
      payload: { name: 'Workshop' },
    });
    const catalogueId = created.json().catalogue.id as string;
    const base = `/api/catalogues/${catalogueId}/products`;
    const res = await sendBody(server, user, 'POST', base, await multipart(validFields));
    const { id } = res.json().product as { id: string };
    const labels = await server.app.inject({
      method: 'GET',
      url: `${base}/labels.pdf?ids=${id}&layout=label-2x1in`,
      headers: user.headers,
    });
    const [page] = await printPdf(labels.rawPayload, 200);
    const codes = await readCodes(page!, cellBox(LAYOUTS['label-2x1in'], 0));
    expect(codes).toEqual([`${server.config.publicUrl}/catalogues/${catalogueId}/products/${id}`]);
  });

  it('repeats each label for copies, in the order of the ids', async () => {
    const two = [products[3]!.id, products[1]!.id].join(',');
    const res = await getLabels(server, user, `ids=${two}&layout=label-2x1in&copies=2`);
    const pages = await printPdf(res.rawPayload, 200);
    const box = cellBox(LAYOUTS['label-2x1in'], 0);
    const codes = await Promise.all(pages.map(async (page) => (await readCodes(page, box))[0]));
    expect(codes).toEqual(['SHELF-A12', 'SHELF-A12', '4006381333931', '4006381333931']);
    expect(products[1]!.barcode).toBe('4006381333931');
  });

  it('makes at most 1,000 labels a request, copies included', async () => {
    const many = Array.from({ length: 500 }, () => products[0]!.id).join(',');
    const ok = await getLabels(server, user, `ids=${many}&copies=2&layout=avery-5160`);
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const over = await getLabels(server, user, `ids=${many},${products[1]!.id}&copies=2`);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: M.tooManyLabels });
    const copies = await getLabels(server, user, `ids=${products[0]!.id}&copies=1001`);
    expect(copies.statusCode).toBe(400);
  });

  it("answers 404 and makes nothing for another user's id or an unknown one", async () => {
    const other = await signIn(server);
    const theirs = await createProduct(server, other);
    for (const stranger of [theirs.id, UNKNOWN_ID, 'not-a-uuid']) {
      const res = await getLabels(server, user, `ids=${products[0]!.id},${stranger}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: M.labelsNotFound });
    }
  });

  it('refuses a bad query with the field that is wrong', async () => {
    const first = products[0]!.id;
    for (const [query, path, message] of [
      ['', 'ids', V.labelIdsInvalid],
      ['ids=', 'ids', V.labelIdsInvalid],
      [`ids=${first},,${first}`, 'ids', V.labelIdsInvalid],
      [`ids=${first}&layout=a4`, 'layout', V.labelLayoutInvalid],
      [`ids=${first}&copies=0`, 'copies', V.labelCopiesInvalid],
      [`ids=${first}&copies=1.5`, 'copies', V.labelCopiesInvalid],
      [`ids=${first}&skip=-1`, 'skip', T.labelSkipInvalid(29)],
      [`ids=${first}&skip=21`, 'skip', T.labelSkipInvalid(20)],
      [`ids=${first}&layout=brother-62mm&skip=1`, 'skip', T.labelSkipInvalid(0)],
    ] as const) {
      const res = await getLabels(server, user, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors?.[0], query).toEqual({ path, message });
    }
    expect(
      (await getLabels(server, user, `ids=${first}&skip=29&layout=avery-5160`)).statusCode,
    ).toBe(200);
  });
});
