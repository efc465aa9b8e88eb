import type { Download } from './api-download.js';

/**
 * Saves a fetched file the way a download link would: a temporary object URL on an <a download>,
 * clicked, then freed once the browser has taken the file.
 */
export function saveDownload({ blob, filename }: Download) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
