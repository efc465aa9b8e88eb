import { describe, expect, it } from 'vitest';
import { LABEL_LAYOUTS, LABELS_PER_PAGE, type LabelLayout } from '../../../src/shared/labels.js';
import { L, type Location } from '../../../src/shared/schemas/locations/locations.js';
import { cellBox, LAYOUTS } from '../../../src/server/features/catalogue-ops/labels/layouts.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { inkOutside, pdfText, printPdf, readCodes } from '../support/printed-labels.js';

describe('location labels', async () => {
  const server = await build();
  const user = await signIn(server);
  const create = async (name: string, parentId: string | null, code?: string) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/locations',
      headers: user.headers,
      payload: { name, parentId, ...(code ? { code } : {}) },
    });
    return (res.json() as { location: Location }).location;
  };
  const warehouse = await create('Warehouse', null);
  const aisle = await create('Aisle 3', warehouse.id);
  // A made code (Code 128), and one too long for bars on a small label (a QR code).
  const bin = await create('Bin 12', aisle.id);
  const crate = await create('Crate', aisle.id, 'RETURNS-CRATE-NORTH-WALL-07');
  const labels = (query: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/locations/labels.pdf?${query}`,
      headers: user.headers,
    });

  it.each(LABEL_LAYOUTS)(
    '%s: each label reads back as its location’s code, inside its cell',
    async (layout: LabelLayout) => {
      const res = await labels(`ids=${bin.id},${crate.id}&layout=${layout}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const perPage = LABELS_PER_PAGE[layout];
      const pages = await printPdf(res.rawPayload, 200);
      expect(pages).toHaveLength(perPage > 1 ? 1 : 2);
      for (const [index, location] of [bin, crate].entries()) {
        const page = pages[Math.floor(index / perPage)]!;
        const box = cellBox(LAYOUTS[layout], index % perPage);
        expect(await readCodes(page, box), `${layout} label ${index}`).toEqual([location.code]);
      }
      for (const page of pages) {
        const cells = Array.from({ length: perPage }, (_, cell) => cellBox(LAYOUTS[layout], cell));
        expect(inkOutside(page, cells)).toBe(0);
      }
    },
  );

  it('prints the path in words, as text a reader can search', async () => {
    const res = await labels(`ids=${bin.id}&layout=avery-l7160&copies=2`);
    const text = (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
    expect(text.split('Warehouse / Aisle 3 / Bin 12')).toHaveLength(3);
  });

  it('refuses more than 1,000 labels, copies included, naming locations', async () => {
    const over = await labels(`ids=${bin.id},${crate.id}&copies=501`);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: L.tooManyLabels });
    expect(L.tooManyLabels).toContain('fewer locations or copies');
  });

  it("answers 404 and makes nothing for another catalogue's location", async () => {
    const other = await signIn(server);
    const theirs = await server.app.inject({
      method: 'GET',
      url: '/api/locations',
      headers: other.headers,
    });
    const theirId = (theirs.json() as { locations: Location[] }).locations[0]!.id;
    for (const stranger of [theirId, 'not-a-uuid']) {
      const res = await labels(`ids=${bin.id},${stranger}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: L.labelsNotFound });
    }
    const bad = await labels('ids=');
    expect(bad.json()).toMatchObject({ errors: [{ path: 'ids', message: L.labelIdsInvalid }] });
  });
});
