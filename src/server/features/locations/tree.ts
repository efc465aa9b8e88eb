import { PATH_SEPARATOR } from '../../../shared/schemas/locations/locations.js';

/** What the tree needs of a location. */
export interface TreeNode {
  id: string;
  parent_id: string | null;
  name: string;
  name_key: string;
}

/**
 * A catalogue's locations in the order a tree is read: each parent before its children, siblings
 * by name; each with its path. A location whose parent is missing (none is: the parent's foreign
 * key keeps it) would come out at the top.
 */
export function treeOrder<Row extends TreeNode>(rows: Row[]): { row: Row; path: string }[] {
  const ids = new Set(rows.map((row) => row.id));
  const children = new Map<string | null, Row[]>();
  for (const row of rows) {
    const parent = row.parent_id !== null && ids.has(row.parent_id) ? row.parent_id : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(row);
    else children.set(parent, [row]);
  }
  const byName = (a: Row, b: Row) =>
    a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id < b.id ? -1 : 1;
  const ordered: { row: Row; path: string }[] = [];
  // Depth first, without recursion; the parent's foreign key rules out a cycle, `seen` guards it.
  const seen = new Set<string>();
  const stack: { row: Row; parentPath: string }[] = (children.get(null) ?? [])
    .sort(byName)
    .reverse()
    .map((row) => ({ row, parentPath: '' }));
  while (stack.length > 0) {
    const { row, parentPath } = stack.pop()!;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const path = parentPath ? `${parentPath}${PATH_SEPARATOR}${row.name}` : row.name;
    ordered.push({ row, path });
    const below = (children.get(row.id) ?? []).sort(byName).reverse();
    for (const child of below) stack.push({ row: child, parentPath: path });
  }
  return ordered;
}

/** A path from names listed from the top. */
export const pathOf = (names: string[]) => names.join(PATH_SEPARATOR);
