import { describe, expect, it } from 'vitest';
import { cellBox, LAYOUTS } from '../../../src/server/features/catalogue-ops/labels/layouts.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { createProduct } from '../support/products.js';
import { inkInside, notdefGlyphs, pdfText, printPdf } from '../support/printed-labels.js';

/** Names as shops write them, one script each (and Latin's typographic punctuation). */
const NAMES = [
  'Beeswax Candle — Charcoal',
  'Crème brûlée “Łódź” №5',
  'Свеча восковая',
  'Κερί μελισσοκέρι',
  'شمعة شمع العسل',
  'נר שעוות דבורים',
  '蜂蜡蜡烛 木炭色',
  'ろうそく、カタカナ',
  '밀랍 양초 숯색',
  'मोमबत्ती क्षत्रिय',
  'เทียนขี้ผึ้ง',
];

/** Directional marks poppler puts around right-to-left text, and runs of spaces and lines. */
const plain = (text: string) =>
  text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('labels in every script', async () => {
  const server = await build();
  const user = await signIn(server);
  const products = [];
  for (const [index, name] of NAMES.entries()) {
    products.push(await createProduct(server, user, { name, barcode: `SCRIPT-${index}` }));
  }
  const ids = products.map((product) => product.id).join(',');
  const labels = await server.app.inject({
    method: 'GET',
    url: `/api/products/labels.pdf?ids=${ids}&layout=avery-l7160`,
    headers: user.headers,
  });

  it('prints every name as it was written: its text extracts back, no "?" in its place', async () => {
    expect(labels.statusCode).toBe(200);
    const text = plain(await pdfText(labels.rawPayload));
    for (const name of NAMES) expect(text, name).toContain(name);
    expect(text).not.toContain('?');
  });

  it('draws a glyph for every character, none as the empty .notdef box', async () => {
    expect(notdefGlyphs(labels.rawPayload)).toBe(0);
    const [page] = await printPdf(labels.rawPayload, 150);
    const layout = LAYOUTS['avery-l7160'];
    for (const [index, name] of NAMES.entries()) {
      // The name's box: the top two lines of the label, inside its margin.
      const cell = cellBox(layout, index);
      const pad = Math.min(cell.width, cell.height) * 0.07;
      const box = { x: cell.x + pad, y: cell.y + pad, width: cell.width - 2 * pad, height: 24 };
      expect(inkInside(page!, box), name).toBeGreaterThan(100);
    }
  });

  it('embeds only the glyphs drawn, so a sheet in eleven scripts stays small', () => {
    expect(labels.rawPayload.length).toBeLessThan(160_000);
  });
});
