import sharp from 'sharp';
import { insertUser, updateUser } from '../src/server/features/accounts/users.js';
import { createSession } from '../src/server/features/accounts/sessions.js';
import type { DB } from '../src/server/infra/db/handle.js';
import { systemClock } from '../src/server/lib/clock.js';

/** A confirmed user with a live session, made through the data layer. */
export async function seedUser(db: DB, email: string) {
  const id = await insertUser(db, { name: 'Bench', email, passwordHash: 'unused' }, Date.now());
  await updateUser(db, id, { confirmed: 1 }, Date.now());
  return { id, token: await createSession(db, systemClock, id) };
}

const WORDS = ['oak', 'steel', 'lamp', 'desk', 'chair', 'blue', 'large', 'mug', 'shelf', 'rug'];

/** Products with realistic lengths, created one second apart, up to now. */
export function* products(count: number) {
  const start = Date.now() - count * 1000;
  for (let i = 0; i < count; i += 1) {
    const word = (n: number) => WORDS[(i * 7 + n * 3) % WORDS.length];
    yield {
      name: `${word(1)} ${word(2)} ${word(3)} #${i}`,
      description: `A ${word(4)} ${word(5)} made of ${word(6)}, sold by the unit. Sturdy, easy to clean and shipped flat. Reference ${i}.`,
      priceCents: ((i * 7919) % 99_999) + 1,
      stock: (i * 31) % 250,
      image: null,
      createdAt: start + i * 1000,
      // Codes as a labelled catalogue has them: the lookup finds one among all of them.
      sku: `SKU-${i}`,
      barcode: `BC-${i}`,
    };
  }
}

/**
 * The costliest products to search (ADR 007): 5000 Hangul syllables decompose into 10,000 letters
 * of 3 bytes, the cap of a searchable description, and each name holds the one trigram that the
 * description lacks, so every row is a candidate of WORST_QUERY and none contains it.
 */
export function* costliest(count: number) {
  const start = Date.now() - count * 1000;
  for (let i = 0; i < count; i += 1) {
    yield {
      name: `가b ${i}`,
      description: '가'.repeat(5000),
      priceCents: i + 1,
      stock: 1,
      image: null,
      createdAt: start + i * 1000,
    };
  }
}

/** 199 letters once decomposed: 99 syllables of the description, then what never follows them. */
export const WORST_QUERY = `${'가'.repeat(99)}b`;

/** A 1-megapixel JPEG that compresses like a photo: smooth gradients, texture and some grain. */
export async function photo(width = 1155, height = 866): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 42;
  const grain = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 17) - 8;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      const wave = Math.sin(x / 37) * Math.cos(y / 23) * 40;
      pixels[i] = Math.max(0, Math.min(255, 90 + (x / width) * 120 + wave + grain()));
      pixels[i + 1] = Math.max(0, Math.min(255, 70 + (y / height) * 100 - wave + grain()));
      pixels[i + 2] = Math.max(0, Math.min(255, 140 + Math.sin((x + y) / 61) * 60 + grain()));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}
