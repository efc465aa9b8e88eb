/**
 * Who may do what in a catalogue: the one rule the server enforces on every route and the screens
 * follow to hide what a role cannot do. Roles are ordered by trust; each action names the roles
 * that may take it.
 */
export const CATALOGUE_ROLES = ['owner', 'admin', 'editor', 'stock', 'viewer'] as const;
export type CatalogueRole = (typeof CATALOGUE_ROLES)[number];

/** The roles an invitation or a role change may give: ownership is only ever handed over. */
export const ASSIGNABLE_ROLES = ['admin', 'editor', 'stock', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

const everyone: readonly CatalogueRole[] = CATALOGUE_ROLES;
const editors: readonly CatalogueRole[] = ['owner', 'admin', 'editor'];
const admins: readonly CatalogueRole[] = ['owner', 'admin'];
const owner: readonly CatalogueRole[] = ['owner'];

/**
 * Each action, the roles allowed it, and how a refusal names it: "{a role} cannot {text} in this
 * catalogue." ("A viewer cannot adjust stock in this catalogue."), or `refusal` where the action
 * names the catalogue itself. Reading covers the list, a product, its history, the summary and
 * scan lookups, and the locations; editing covers create, edit, delete, import and bulk delete;
 * managing locations covers creating, renaming, moving and deleting them.
 */
export const CATALOGUE_ACTIONS = {
  read: { roles: everyone, text: 'read products' },
  export: { roles: ['owner', 'admin', 'editor', 'viewer'], text: 'export products' },
  adjustStock: { roles: ['owner', 'admin', 'editor', 'stock'], text: 'adjust stock' },
  editProducts: { roles: editors, text: 'create, edit or delete products' },
  // Labelling shelves is stock work.
  printLabels: { roles: ['owner', 'admin', 'editor', 'stock'], text: 'print labels' },
  manageLocations: { roles: editors, text: 'manage locations' },
  managePurchasing: { roles: editors, text: 'manage suppliers and purchase orders' },
  // Taking in what was ordered is stock work.
  receiveStock: {
    roles: ['owner', 'admin', 'editor', 'stock'],
    text: 'receive stock against purchase orders',
  },
  // Counting is stock work; starting, reviewing and posting a count is an editor's.
  countStock: { roles: ['owner', 'admin', 'editor', 'stock'], text: 'count stock' },
  manageCounts: { roles: editors, text: 'start, review, post or cancel stock counts' },
  // Not a route's: who sees the expected quantities of a blind count before its review.
  seeBlindExpected: { roles: admins, text: "see a blind count's expected quantities" },
  manageMembers: { roles: admins, text: 'manage members and invitations' },
  renameCatalogue: {
    roles: admins,
    text: 'rename the catalogue',
    refusal: 'rename this catalogue',
  },
  manageWebhooks: { roles: admins, text: 'manage webhooks' },
  deleteCatalogue: { roles: owner, text: 'delete the catalogue', refusal: 'delete this catalogue' },
  transferOwnership: {
    roles: owner,
    text: 'hand over ownership',
    refusal: 'hand over ownership of this catalogue',
  },
} as const satisfies Record<
  string,
  { roles: readonly CatalogueRole[]; text: string; refusal?: string }
>;
export type CatalogueAction = keyof typeof CATALOGUE_ACTIONS;

export function can(role: CatalogueRole, action: CatalogueAction): boolean {
  return (CATALOGUE_ACTIONS[action].roles as readonly CatalogueRole[]).includes(role);
}

/** How a refusal names a member by their role: "An owner", "An editor", "A stock member". */
const MEMBER_OF_ROLE: Record<CatalogueRole, string> = {
  owner: 'An owner',
  admin: 'An admin',
  editor: 'An editor',
  stock: 'A stock member',
  viewer: 'A viewer',
};

/** The 403 message of a member whose role does not allow an action. */
export function roleCannot(role: CatalogueRole, action: CatalogueAction): string {
  const entry: { text: string; refusal?: string } = CATALOGUE_ACTIONS[action];
  return `${MEMBER_OF_ROLE[role]} cannot ${entry.refusal ?? `${entry.text} in this catalogue`}.`;
}

/** How a role reads on screen and in mails. */
export const ROLE_LABELS: Record<CatalogueRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  stock: 'Stock',
  viewer: 'Viewer',
};

/** What each role may do, in a sentence, for the invite and members screens. */
export const ROLE_DESCRIPTIONS: Record<CatalogueRole, string> = {
  owner: 'Everything, including deleting the catalogue.',
  admin: 'Members and invitations, and everything an editor does.',
  editor: 'Create, edit, delete, import, print labels and manage locations.',
  stock: 'Read, adjust stock, scan and print labels.',
  viewer: 'Read and export.',
};
