/**
 * Idempotency-Key for the product writes: what other features use of it (the rest is its own).
 */
export { idempotently, sendAnswer, type RecordAnswer } from './guard.js';
export { idempotencyPlugin } from './plugin.js';
export type { Answer } from './store.js';
