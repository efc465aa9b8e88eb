import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/server/features/accounts/passwords.js';
import { insertUser, updateUser } from '../../../src/server/features/accounts/users.js';
import { newEmail, NEW_PASSWORD, signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { expectIndistinguishableTimes } from '../support/mann-whitney.js';
import { createCatalogue, invite } from './support.js';

const WARM_UP_PAIRS = 10;
const PAIRS = 60;

/** The answer without what differs by design: the address, the ids and the times. */
const shapeOf = (text: string, email: string) =>
  text
    .replaceAll(email, '<email>')
    .replace(/"id":"[0-9a-f-]{36}","email"/, '"id":"<id>","email"')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');

/**
 * Inviting must not tell by its time whether the address has an account. 60 pairs, each side a
 * fresh address, interleaved and alternating which goes first, each pair in a catalogue of its
 * own (a catalogue sends 20 a day), compared with a Mann-Whitney U test.
 */
describe('inviting takes the same time whether or not the address has an account', async () => {
  // 140 invitations from one owner: more than an account sends in a day by default.
  const server = await build({
    env: { CATALOGUES_PER_ACCOUNT: '1000', INVITATIONS_PER_ACCOUNT: '1000' },
  });
  const owner = await signIn(server, 'Timer');
  const passwordHash = await hashPassword(NEW_PASSWORD);
  let catalogues = 0;

  it('POST /api/catalogues/{catalogueId}/invitations', async () => {
    const measure = async () => {
      const samples = { existing: [] as number[], unknown: [] as number[] };
      for (let pair = 0; pair < WARM_UP_PAIRS + PAIRS; pair += 1) {
        server.clock.advance(61_000);
        catalogues += 1;
        const catalogue = await createCatalogue(server, owner, `Timing ${catalogues}`);
        const existing = newEmail('existing');
        const now = server.clock.now();
        const id = await insertUser(
          server.database.db,
          { name: 'Member', email: existing, passwordHash },
          now,
        );
        await updateUser(server.database.db, id, { confirmed: 1 }, now);
        const order =
          pair % 2 === 0 ? (['existing', 'unknown'] as const) : (['unknown', 'existing'] as const);
        const shapes: string[] = [];
        for (const side of order) {
          const email = side === 'existing' ? existing : newEmail('unknown');
          const start = process.hrtime.bigint();
          const res = await invite(server, owner, catalogue.id, email);
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          expect(res.status).toBe(201);
          shapes.push(`${res.headers['content-type']} ${shapeOf(res.text, email)}`);
          if (pair >= WARM_UP_PAIRS) samples[side].push(ms);
        }
        expect(shapes[0]).toBe(shapes[1]);
      }
      return samples;
    };
    await expectIndistinguishableTimes(measure, (ok, summary) => expect(ok, summary).toBe(true));
  });
});
