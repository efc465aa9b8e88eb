import type { AxiosProgressEvent } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { progressHandler } from '@/features/products/api/product-multipart.js';

const event = (fields: Partial<AxiosProgressEvent>): AxiosProgressEvent => ({
  loaded: 0,
  bytes: 0,
  lengthComputable: true,
  ...fields,
});

describe('the upload progress of a product form', () => {
  it("is axios's fraction, else loaded over total, else nothing", () => {
    const onProgress = vi.fn();
    const handle = progressHandler(onProgress);
    handle(event({ loaded: 512, total: 1024, progress: 0.5 }));
    handle(event({ loaded: 768, total: 1024 }));
    handle(event({ loaded: 100, lengthComputable: false }));
    expect(onProgress.mock.calls).toEqual([[0.5], [0.75]]);
  });
});
