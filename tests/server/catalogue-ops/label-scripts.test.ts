import { describe, expect, it } from 'vitest';
import { cellBox, LAYOUTS } from '../../../src/server/features/catalogue-ops/labels/layouts.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { createProduct } from '../support/products.js';
import {
  drawnWords,
  inkInside,
  notdefGlyphs,
  pdfText,
  printPdf,
} from '../support/printed-labels.js';

/** Names as shops write them, one script each (and Latin's typographic punctuation). */
const MAJOR_SCRIPTS = [
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

/**
 * The scripts of South and South-East Asia, each with what its shaping must get right: vowel signs
 * drawn before their consonant (Bengali ো, Tamil ெ, Khmer ៀ, Myanmar ေ and ြ), conjuncts and
 * stacks (ক্ষ, ශ්‍රී, ខ្មែ, Tibetan སྐ), marks above and below (Thaana, right to left).
 */
const SOUTH_ASIAN_SCRIPTS = [
  'মোমবাতি ক্ষত্রিয়',
  'ਮੋਮਬੱਤੀ ਪੰਜਾਬੀ',
  'મીણબત્તી ગુજરાતી',
  'ମହମବତୀ ଓଡ଼ିଆ',
  'மெழுகுவர்த்தி தமிழ்',
  'కొవ్వొత్తి తెలుగు',
  'ಮೇಣದಬತ್ತಿ ಕನ್ನಡ',
  'മെഴുകുതിരി മലയാളം',
  'ඉටිපන්දම ශ්‍රී ලංකා',
  'ᱥᱟᱱᱛᱟᱲᱤ ᱚᱞ ᱪᱤᱠᱤ',
  'ދިވެހި ބަސް',
  'མཆོད་མེ་ བོད་སྐད',
  'ဖယောင်းတိုင် မြန်မာ',
  'ទៀន ភាសាខ្មែរ',
  'ທຽນໄຂ ພາສາລາວ',
];

/** More scripts in living use, and emoji: flags, keycaps, skin tones and joined sequences. */
const MORE_SCRIPTS = [
  'სანთელი ქართული',
  'Մոմ Հայերեն',
  'ሻማ አማርኛ',
  'ᐃᓄᒃᑎᑐᑦ ᓇᐃᒪᔪᖅ',
  'ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ',
  'ⵜⴰⵎⴰⵣⵉⵖⵜ ⵜⴰⴼⵉⵏⴰⵖ',
  'ꆈꌠꁱꂷ ꀉꂿ',
  'ελλ 😀 x',
  '🕯️👍🏽🇫🇷👨‍👩‍👧1️⃣',
];

/** Directional marks poppler puts around right-to-left text, and runs of spaces and lines. */
const plain = (text: string) =>
  text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * What of a name poppler reads back in order. The vowel marks of a right-to-left script (Thaana's
 * fili, as Hebrew's points and Arabic's harakat) it puts beside their letter rather than after
 * it, with a space: of such a name, its letters in order.
 */
const RIGHT_TO_LEFT_MARKED = /[\p{sc=Thaana}\p{sc=Hebrew}\p{sc=Arabic}]\p{M}/u;
const readBack = (name: string, text: string) =>
  RIGHT_TO_LEFT_MARKED.test(name)
    ? [name.replace(/[\p{M}\s]/gu, ''), text.replace(/[\p{M}\s]/gu, '')]
    : [name, text];

describe.each([
  ['eleven major scripts', MAJOR_SCRIPTS, 'SCRIPT'],
  ['the scripts of South and South-East Asia', SOUTH_ASIAN_SCRIPTS, 'SOUTH'],
  ['more scripts and emoji', MORE_SCRIPTS, 'MORE'],
])('labels in every script: a sheet in %s', async (_, names, prefix) => {
  const server = await build();
  const user = await signIn(server);
  const products = [];
  for (const [index, name] of names.entries()) {
    products.push(await createProduct(server, user, { name, barcode: `${prefix}-${index}` }));
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
    for (const name of names) {
      const [expected, extracted] = readBack(name, text);
      expect(extracted, name).toContain(expected);
    }
    expect(text).not.toContain('?');
  });

  it('draws a glyph for every character, none as the empty .notdef box', async () => {
    expect(notdefGlyphs(labels.rawPayload)).toBe(0);
    const [page] = await printPdf(labels.rawPayload, 150);
    const layout = LAYOUTS['avery-l7160'];
    for (const [index, name] of names.entries()) {
      // The name's box: the top two lines of the label, inside its margin.
      const cell = cellBox(layout, index);
      const pad = Math.min(cell.width, cell.height) * 0.07;
      const box = { x: cell.x + pad, y: cell.y + pad, width: cell.width - 2 * pad, height: 24 };
      expect(inkInside(page!, box), name).toBeGreaterThan(100);
    }
  });

  it('embeds only the glyphs drawn, so a sheet in many scripts stays small', () => {
    expect(labels.rawPayload.length).toBeLessThan(160_000);
  });
});

describe('an emoji among right-to-left words of a left-to-right name', async () => {
  const server = await build();
  const user = await signIn(server);
  const product = await createProduct(server, user, {
    name: 'Candle נר שעוות 😀 דבורים',
    barcode: 'RTL-1',
  });
  const labels = await server.app.inject({
    method: 'GET',
    url: `/api/products/labels.pdf?ids=${product.id}&layout=avery-l7160`,
    headers: user.headers,
  });

  it('keeps its place in the right-to-left phrase, and the spaces beside it their width', async () => {
    expect(labels.statusCode).toBe(200);
    const visual = (word: string) => [...word].reverse().join('');
    const words = await drawnWords(labels.rawPayload);
    // The name's line: the words whose top is within a few points of the page's first one.
    const top = Math.min(...words.map((word) => word.y));
    const line = words.filter((word) => word.y - top < 4);
    expect(line.map((word) => word.text)).toEqual([
      'Candle',
      visual('דבורים'),
      '😀',
      visual('שעוות'),
      visual('נר'),
    ]);
    // A space beside an emoji is the name's font's (the emoji font's is as wide as an emoji).
    for (const [index, word] of line.slice(1).entries()) {
      expect(word.x - line[index]!.right, word.text).toBeLessThan(5);
    }
  });
});
