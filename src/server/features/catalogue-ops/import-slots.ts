/**
 * Imports running at once in this process: at most one per user, and at most `max` in all. An
 * import holds up to 10 MB of rows in memory while it checks them, and its writes take turns on
 * the database; a user who sends several at once, or many users at once, wait their turn outside.
 */
export class ImportSlots {
  private readonly owners = new Set<string>();

  constructor(private readonly max: number) {}

  /** A slot for the owner's import (call the function to give it back), or why there is none. */
  take(ownerId: string): (() => void) | 'owner-busy' | 'full' {
    if (this.owners.has(ownerId)) return 'owner-busy';
    if (this.owners.size >= this.max) return 'full';
    this.owners.add(ownerId);
    return () => this.owners.delete(ownerId);
  }
}
