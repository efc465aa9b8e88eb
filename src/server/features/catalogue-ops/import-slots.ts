import type { UserLeases } from '../../infra/leases/user-leases.js';

/**
 * Imports running at once: at most one per user on every instance together (a lease, see
 * infra/leases), and at most `max` in this process. An import holds up to 10 MB of rows in memory
 * while it checks them, and its writes take turns on the database; a user who sends several at
 * once, or many users at once, wait their turn outside.
 */
export class ImportSlots {
  private running = 0;

  constructor(
    private readonly max: number,
    private readonly leases: UserLeases,
  ) {}

  /** A slot for the owner's import (call the function to give it back), or why there is none. */
  async take(ownerId: string): Promise<(() => void) | 'owner-busy' | 'full'> {
    if (this.running >= this.max) return 'full';
    const release = await this.leases.take('import', ownerId, 1);
    if (!release) return 'owner-busy';
    // The lease may have taken a moment: the places are looked at again.
    if (this.running >= this.max) {
      release();
      return 'full';
    }
    this.running += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running -= 1;
      release();
    };
  }
}
