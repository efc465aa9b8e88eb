import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  can,
  roleCannot,
  type AssignableRole,
  type CatalogueAction,
} from '../../../src/shared/catalogue-roles.js';
import { M } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import {
  CATALOGUE_NOT_FOUND,
  createProductIn,
  fire,
  person,
  prepare,
  roleOf,
  send,
  type Answer,
  type Person,
  type Request,
} from './catalogue-world.js';
import { catalogueWith } from './fixtures.js';

/**
 * A member writing as fast as they can while an admin removes them or changes their role. Once
 * the change has answered, the member's next request is refused, and nothing they sent lands
 * after it: every write either committed before the change or not at all. "After" is proven,
 * not guessed: as soon as the change answers, the owner makes a write of their own (the marker);
 * a catalogue's changes commit in the order of their live events' ids, so a member's change with
 * an id above the marker's committed after the change had answered.
 */

// Many catalogues of one owner, made to race: more than an account may own by default.
const server = await build({ env: { CATALOGUES_PER_ACCOUNT: '1000' } });
const owner = await person(server, 'Owner');
const admin = await person(server, 'Admin');

type Op = 'adjust' | 'create' | 'edit' | 'bulk-delete' | 'import';
const OPS: Op[] = ['adjust', 'create', 'edit', 'bulk-delete', 'import'];
const ACTION_OF: Record<Op, CatalogueAction> = {
  adjust: 'adjustStock',
  create: 'editProducts',
  edit: 'editProducts',
  'bulk-delete': 'editProducts',
  import: 'editProducts',
};

interface Sent {
  op: Op;
  key: string;
  /** Sent once the change had answered: it must be refused. */
  afterChange: boolean;
  answer: Answer;
}

/** What happens to the member: removed, or given a role with fewer rights. */
type Change = { kind: 'remove' } | { kind: 'role'; role: AssignableRole };

const WORKERS = 3;
/** Requests each worker still sends once the change has answered. */
const AFTER = 3;

async function round(member: Person, change: Change, label: string) {
  const catalogueId = await catalogueWith(server, owner, label, [
    [member, 'editor'],
    [admin, 'admin'],
  ]);
  const target = await createProductIn(server, owner, catalogueId, { stock: '1000' });
  const marker = await createProductIn(server, owner, catalogueId);
  const victims: string[] = [];
  for (let index = 0; index < 12; index++) {
    victims.push(await createProductIn(server, owner, catalogueId));
  }
  const base = `/api/catalogues/${catalogueId}/products`;

  let sequence = 0;
  let changeAnswered = false;
  let successes = 0;
  const sent: Sent[] = [];

  const requestFor = (op: Op, key: string): Request | undefined => {
    switch (op) {
      case 'adjust':
        return { method: 'POST', url: `${base}/${target}/stock`, json: { delta: 1, note: key } };
      case 'create':
        return {
          method: 'POST',
          url: base,
          form: { name: key, price: '1', stock: '1', description: 'd' },
        };
      case 'edit':
        return { method: 'PATCH', url: `${base}/${target}`, form: { description: key } };
      case 'import':
        return {
          method: 'POST',
          url: `${base}/import`,
          csv: `name,price,stock,description\r\n${[1, 2, 3].map((row) => `${key} row ${row},1,1,d`).join('\r\n')}\r\n`,
        };
      case 'bulk-delete': {
        const victim = victims.pop();
        if (victim === undefined) return undefined;
        return { method: 'POST', url: `${base}/bulk-delete`, json: { ids: [victim] } };
      }
    }
  };

  async function worker() {
    let afterwards = 0;
    // Bounded, should the change never answer: the test fails on its counts, not on a hang.
    while (afterwards < AFTER && sequence < 400) {
      const n = ++sequence;
      // Once the victims are used up, bulk deletes give way to adjustments.
      const wanted = OPS[n % OPS.length]!;
      const op = wanted === 'bulk-delete' && victims.length === 0 ? 'adjust' : wanted;
      const key = `${label} ${op} ${n}`;
      const request = requestFor(op, key)!;
      const options = await prepare(member, request);
      const afterChange = changeAnswered;
      const answer = await fire(server, options);
      sent.push({ op, key, afterChange, answer });
      if (answer.status < 300) successes++;
      if (afterChange) afterwards++;
    }
  }

  async function changer() {
    // Some writes land first: the member was allowed, and the change comes while they write.
    while (successes < 4 && sequence < 60) await new Promise((resolve) => setImmediate(resolve));
    const url = `/api/catalogues/${catalogueId}/members/${member.id}`;
    const answer = await send(
      server,
      admin,
      change.kind === 'remove'
        ? { method: 'DELETE', url }
        : { method: 'PATCH', url, json: { role: change.role } },
    );
    changeAnswered = true;
    const markerAnswer = await send(server, owner, {
      method: 'POST',
      url: `${base}/${marker}/stock`,
      json: { delta: 1 },
    });
    return { answer, markerAnswer };
  }

  const [{ answer, markerAnswer }] = await Promise.all([
    changer(),
    ...Array.from({ length: WORKERS }, worker),
  ]);
  expect({ status: answer.status, body: answer.body }).toMatchObject({
    status: 200,
    body: { message: change.kind === 'remove' ? 'Member removed' : 'Role changed' },
  });
  expect(markerAnswer.status).toBe(200);
  return { catalogueId, target, marker, sent };
}

/** What a request the change has caught must be answered. */
function refusal(change: Change, op: Op) {
  if (change.kind === 'remove') return { status: 404, body: CATALOGUE_NOT_FOUND };
  const action = ACTION_OF[op];
  return { status: 403, body: { message: roleCannot(change.role, action) } };
}

/** A write the new role still allows: a stock keeper adjusts stock. */
const allowedAfter = (change: Change, op: Op) =>
  change.kind === 'role' && can(change.role, ACTION_OF[op]);

async function checkRound(member: Person, change: Change, label: string) {
  const { catalogueId, target, marker, sent } = await round(member, change, label);
  const problems: string[] = [];

  for (const { op, key, afterChange, answer } of sent) {
    const refused = refusal(change, op);
    const asRefused = { status: answer.status, body: answer.body };
    const isRefusal = JSON.stringify(asRefused) === JSON.stringify(refused);
    const isSuccess = answer.status >= 200 && answer.status < 300;
    if (afterChange && !allowedAfter(change, op) && !isRefusal) {
      problems.push(
        `${key}, sent after the change answered: ${answer.status} ${answer.text.slice(0, 200)}`,
      );
    }
    // One import of a user runs at a time: another worker's import, still running, turns this
    // one away before it changes anything (what landed is checked below).
    const importBusy =
      op === 'import' &&
      !afterChange &&
      answer.status === 429 &&
      JSON.stringify(answer.body) === JSON.stringify({ message: M.importRunning });
    if (!isRefusal && !isSuccess && !importBusy) {
      problems.push(
        `${key}: neither done nor refused: ${answer.status} ${answer.text.slice(0, 200)}`,
      );
    }
  }

  // What landed is exactly what was answered 2xx.
  const db = server.database.db;
  const ok = (op: Op) =>
    new Set(sent.filter((s) => s.op === op && s.answer.status < 300).map((s) => s.key));
  const { rows: notes } = await sql<{ note: string | null }>`select note from stock_movements
    where product_id = ${target} and note is not null`.execute(db);
  expect(new Set(notes.map((row) => row.note)), 'adjustments that landed').toEqual(ok('adjust'));
  const { rows: names } = await sql<{ name: string }>`select name from products
    where catalogue_id = ${catalogueId} and name like ${`${label} create %`}`.execute(db);
  expect(new Set(names.map((row) => row.name)), 'products created').toEqual(ok('create'));
  const { rows: imported } = await sql<{ name: string }>`select name from products
    where catalogue_id = ${catalogueId} and name like ${`${label} import %`}`.execute(db);
  const importedKeys = new Set(imported.map((row) => row.name.replace(/ row \d$/, '')));
  expect(importedKeys, 'imports that landed').toEqual(ok('import'));
  expect(imported.length, 'imports land whole').toBe(ok('import').size * 3);

  // Nothing of the member's committed after the change. The change records catalogue.updated
  // in its own transaction; a catalogue's events commit in the order of their ids (SQLite has one
  // writer; on PostgreSQL a write holds its member row until it commits, and the change must
  // update or delete that row before it records its event). So a member's event with a higher
  // id committed after the change did. The marker bounds it too, should the change record none.
  const { rows: events } = await sql<{ id: number | string; kind: string; data: string }>`
    select id, kind, data from live_events where catalogue_id = ${catalogueId} order by id`.execute(
    db,
  );
  const markerEvent = events.findLast(
    (event) => event.kind === 'stock.changed' && event.data.includes(marker),
  );
  expect(markerEvent, 'the marker is a live event').toBeDefined();
  const changeEvent = events.findLast((event) => event.kind === 'catalogue.updated');
  const bound = Number((changeEvent ?? markerEvent)!.id);
  const landedLate = events.filter(
    (event) =>
      Number(event.id) > bound &&
      event !== markerEvent &&
      !(change.kind === 'role' && change.role === 'stock' && event.kind === 'stock.changed'),
  );
  if (landedLate.length > 0) {
    problems.push(
      `committed after the change: ${landedLate.map((event) => `${event.kind} ${event.data.slice(0, 120)}`).join('; ')}`,
    );
  }

  const stillMember = await roleOf(server, catalogueId, member.id);
  if (change.kind === 'remove') expect(stillMember).toBeUndefined();
  else expect(stillMember).toBe(change.role);
  return { problems, sent };
}

const ROUNDS = 4;

describe('a member writing while they are removed or lose rights', () => {
  const scenarios: [string, Change][] = [
    ['removed', { kind: 'remove' }],
    ['made a viewer', { kind: 'role', role: 'viewer' }],
    ['made a stock keeper', { kind: 'role', role: 'stock' }],
  ];
  for (const [name, change] of scenarios) {
    it(`refuses every write once ${name}, and none lands after`, async () => {
      const problems: string[] = [];
      let afterCount = 0;
      let beforeSuccesses = 0;
      for (let index = 0; index < ROUNDS; index++) {
        const member = await person(server, `Member ${name} ${index}`);
        const result = await checkRound(member, change, `${name} ${index}`);
        problems.push(...result.problems);
        afterCount += result.sent.filter((s) => s.afterChange).length;
        beforeSuccesses += result.sent.filter(
          (s) => !s.afterChange && s.answer.status < 300,
        ).length;
      }
      // The race was run: writes landed before the change, and requests came after it.
      expect(beforeSuccesses).toBeGreaterThanOrEqual(4 * ROUNDS);
      expect(afterCount).toBeGreaterThanOrEqual(WORKERS * AFTER * ROUNDS);
      expect(problems).toEqual([]);
    });
  }
});

describe('membership changes racing each other', () => {
  it('a role change racing a removal never brings the member back', async () => {
    const problems: string[] = [];
    for (let index = 0; index < 10; index++) {
      const member = await person(server, `Contested ${index}`);
      const catalogueId = await catalogueWith(server, owner, `Contested ${index}`, [
        [member, 'viewer'],
        [admin, 'admin'],
      ]);
      const url = `/api/catalogues/${catalogueId}/members/${member.id}`;
      const [patched, removed] = await Promise.all([
        send(server, owner, { method: 'PATCH', url, json: { role: 'editor' } }),
        send(server, admin, { method: 'DELETE', url }),
      ]);
      const role = await roleOf(server, catalogueId, member.id);
      // Removed and answered: gone, whichever went first (a later role change finds no member).
      if (removed.status === 200 && role !== undefined) {
        problems.push(
          `round ${index}: removed (200) yet a member as ${role}; role change ${patched.status}`,
        );
      }
      if (![200, 404].includes(patched.status)) {
        problems.push(`round ${index}: role change answered ${patched.status} ${patched.text}`);
      }
      if (patched.status === 404) {
        expect(patched.body).toEqual({ message: 'Member not found' });
      }
      // A member who answers to a request must see what the database says.
      const read = await send(server, member, {
        method: 'GET',
        url: `/api/catalogues/${catalogueId}`,
      });
      if ((read.status === 200) !== (role !== undefined)) {
        problems.push(`round ${index}: member reads ${read.status} while their role is ${role}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a hand-over racing the removal of its new owner leaves exactly one owner', async () => {
    const problems: string[] = [];
    for (let index = 0; index < 10; index++) {
      const heir = await person(server, `Heir ${index}`);
      const catalogueId = await catalogueWith(server, owner, `Inherited ${index}`, [
        [heir, 'admin'],
        [admin, 'admin'],
      ]);
      const [handed, removed] = await Promise.all([
        send(server, owner, {
          method: 'POST',
          url: `/api/catalogues/${catalogueId}/transfer`,
          json: { userId: heir.id },
        }),
        send(server, admin, {
          method: 'DELETE',
          url: `/api/catalogues/${catalogueId}/members/${heir.id}`,
        }),
      ]);
      const { rows } = await sql<{ user_id: string }>`select user_id from catalogue_members
        where catalogue_id = ${catalogueId} and role = 'owner'`.execute(server.database.db);
      if (rows.length !== 1) problems.push(`round ${index}: ${rows.length} owners`);
      if (handed.status === 200 && removed.status === 200) {
        problems.push(`round ${index}: handed over and removed the new owner, both 200`);
      }
      if (handed.status === 200 && rows[0]?.user_id !== heir.id) {
        problems.push(`round ${index}: handed over (200), but the owner is not the heir`);
      }
    }
    expect(problems).toEqual([]);
  });
});
