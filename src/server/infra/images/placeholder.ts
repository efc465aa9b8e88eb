import { createHash } from 'node:crypto';

/**
 * The picture of a product without an image. Kept in code rather than as an asset file so the
 * server build (plain tsc) carries it without a copy step.
 */
export const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600" role="img" aria-label="No image">
<rect width="800" height="600" fill="#e5e7eb"/>
<g fill="none" stroke="#9ca3af" stroke-width="16" stroke-linejoin="round">
<rect x="260" y="180" width="280" height="220" rx="24"/>
<path d="M272 372l84-96 64 72 40-40 68 64"/>
</g>
<circle cx="470" cy="240" r="24" fill="#9ca3af"/>
</svg>
`;

/** Named after its content: a new drawing gets a new URL, so the old one may be cached forever. */
export const PLACEHOLDER_NAME = `placeholder-${createHash('sha256')
  .update(PLACEHOLDER_SVG)
  .digest('hex')
  .slice(0, 12)}.svg`;
