import { describe, expect, it, vi } from 'vitest';
import { cachedImport, isChunkLoadError } from '@/lib/lazy-import.js';

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/a.js');

describe('cachedImport', () => {
  it('asks once more when a chunk fails, then keeps what arrived', async () => {
    const load = vi.fn().mockRejectedValueOnce(chunkError()).mockResolvedValue({ ok: true });
    const loader = cachedImport(load);
    await expect(loader()).resolves.toEqual({ ok: true });
    await expect(loader()).resolves.toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failure: the next call tries again', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValue('back online');
    const loader = cachedImport(load);
    await expect(loader()).rejects.toSatisfy(isChunkLoadError);
    await expect(loader()).resolves.toBe('back online');
    expect(load).toHaveBeenCalledTimes(3);
  });
});
