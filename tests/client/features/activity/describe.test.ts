import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@shared/schemas/activity.js';
import { describeEntry, timeAgo } from '@/features/activity/components/describe.js';

const entry = (fields: Partial<ActivityEntry>): ActivityEntry => ({
  id: '1',
  kind: 'product.created',
  at: '2026-11-27T10:00:00.000Z',
  source: 'api',
  actor: null,
  product: { id: 'p', name: 'Vase' },
  changes: null,
  data: {},
  undoable: false,
  undoneBy: null,
  ...fields,
});

describe('one line per entry', () => {
  it('says what changed, with prices in dollars', () => {
    expect(
      describeEntry(entry({ kind: 'stock.moved', data: { oldStock: 4, newStock: 7, delta: 3 } })),
    ).toBe('Stock of Vase: 4 → 7');
    expect(
      describeEntry(
        entry({ kind: 'product.updated', changes: { price: { before: 300, after: 450 } } }),
      ),
    ).toBe('Edited Vase: price 3.00 → 4.50');
    expect(describeEntry(entry({ kind: 'product.deleted' }))).toBe('Deleted Vase');
    expect(
      describeEntry(
        entry({
          kind: 'member.role_changed',
          product: null,
          data: { member: { id: 'u', name: 'Carl' } },
          changes: { role: { before: 'editor', after: 'stock' } },
        }),
      ),
    ).toBe('Changed the role of Carl: editor → stock');
  });

  it("names a location by its path, and an edit's changes", () => {
    const location = { id: 'l', name: 'Shelf 2', path: 'Yard / Shelf 2', code: 'L-ABCDEF' };
    const of = (fields: Partial<ActivityEntry>) =>
      describeEntry(entry({ product: null, data: { location }, ...fields }));
    expect(of({ kind: 'location.created' })).toBe('Added the location Yard / Shelf 2');
    expect(
      of({
        kind: 'location.updated',
        changes: { path: { before: 'Hall / Shelf 2', after: 'Yard / Shelf 2' } },
      }),
    ).toBe('Edited the location Yard / Shelf 2: path Hall / Shelf 2 → Yard / Shelf 2');
    expect(of({ kind: 'location.deleted' })).toBe('Deleted the location Yard / Shelf 2');
  });

  it("tells a change of the catalogue's reorder point and of its webhooks", () => {
    const of = (fields: Partial<ActivityEntry>) =>
      describeEntry(entry({ product: null, ...fields }));
    expect(
      of({
        kind: 'catalogue.reorder_point_changed',
        changes: { reorderPoint: { before: 10, after: 4 } },
      }),
    ).toBe("Changed the catalogue's reorder point: 10 → 4");
    const webhook = { id: 'w', url: 'https://hooks.example.com/…' };
    expect(of({ kind: 'webhook.created', data: { webhook, events: ['stock.moved'] } })).toBe(
      'Added the webhook https://hooks.example.com/…',
    );
    expect(
      of({
        kind: 'webhook.updated',
        data: { webhook },
        changes: {
          enabled: { before: true, after: false },
          events: { before: ['stock.moved'], after: ['stock.moved', 'undo'] },
        },
      }),
    ).toBe(
      'Edited the webhook https://hooks.example.com/…: enabled yes → no, events stock.moved → stock.moved, undo',
    );
    expect(of({ kind: 'webhook.secret_rotated', data: { webhook } })).toBe(
      'Replaced the signing secret of the webhook https://hooks.example.com/…',
    );
    expect(of({ kind: 'webhook.deleted', data: { webhook } })).toBe(
      'Deleted the webhook https://hooks.example.com/…',
    );
  });

  it('tells how long ago', () => {
    const now = Date.parse('2026-11-27T10:05:00.000Z');
    expect(timeAgo('2026-11-27T10:00:00.000Z', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-11-26T10:00:00.000Z', now)).toBe('yesterday');
  });
});
