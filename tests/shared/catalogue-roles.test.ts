import { describe, expect, it } from 'vitest';
import { roleCannot } from '../../src/shared/catalogue-roles.js';

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
