import { describe, expect, it } from 'vitest';
import { can, ROLE_DESCRIPTIONS, roleCannot } from '../../src/shared/catalogue-roles.js';

describe('the stock role', () => {
  // Labelling shelves is stock work: the stock role reads, adjusts, scans and prints labels.
  it('may print labels, and is told so', () => {
    expect(can('stock', 'printLabels')).toBe(true);
    expect(can('viewer', 'printLabels')).toBe(false);
    expect(ROLE_DESCRIPTIONS.stock).toBe('Read, adjust stock, scan and print labels.');
  });
});

describe('a refusal by role', () => {
  it.each([
    ['owner', 'adjustStock', 'An owner cannot adjust stock in this catalogue.'],
    ['admin', 'deleteCatalogue', 'An admin cannot delete this catalogue.'],
    ['admin', 'transferOwnership', 'An admin cannot hand over ownership of this catalogue.'],
    [
      'editor',
      'manageMembers',
      'An editor cannot manage members and invitations in this catalogue.',
    ],
    ['editor', 'renameCatalogue', 'An editor cannot rename this catalogue.'],
    [
      'stock',
      'editProducts',
      'A stock member cannot create, edit or delete products in this catalogue.',
    ],
    ['stock', 'export', 'A stock member cannot export products in this catalogue.'],
    ['viewer', 'adjustStock', 'A viewer cannot adjust stock in this catalogue.'],
    ['viewer', 'manageWebhooks', 'A viewer cannot manage webhooks in this catalogue.'],
  ] as const)('reads right for %s refused %s', (role, action, message) => {
    expect(roleCannot(role, action)).toBe(message);
  });
});
