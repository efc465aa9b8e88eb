import { encode } from 'uqr';

/**
 * A QR code drawn as one SVG path, dark modules on white with a quiet zone: what authenticator
 * apps scan. Drawn here, so the secret never leaves the page.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 4 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-48 rounded-lg bg-white ring-1 ring-gray-200"
    >
      <path d={path} fill="#111827" />
    </svg>
  );
}
