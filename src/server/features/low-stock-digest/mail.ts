import type { MailMessage } from '../../infra/mail/outbox.js';

/** One product as a digest lists it. */
export interface DigestLine {
  name: string;
  stock: number;
  reorderPoint: number;
  catalogue: string;
  url: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** 'Low stock: 3 products to reorder', 'Low stock: 1 product to reorder'. */
const digestSubject = (count: number) =>
  `Low stock: ${count} ${count === 1 ? 'product' : 'products'} to reorder`;

/**
 * The digest: each product's name, stock, point and catalogue with a link to it, as text and as
 * HTML (a table the text cannot be); `total` counts those left out past the lines given.
 */
export function lowStockDigestMail(
  publicUrl: string,
  to: string,
  userName: string,
  lines: DigestLine[],
  total: number,
): MailMessage {
  const subject = digestSubject(total);
  const more = total - lines.length;
  // The names are the catalogues' members' words, said to be theirs; the subject holds none.
  const intro =
    "These products reached their reorder point since your last digest (their names, and the catalogues', as your catalogues' members typed them):";
  const text = [
    `Hello ${userName},`,
    '',
    intro,
    '',
    ...lines.flatMap((line) => [
      `- ${line.name}: stock ${line.stock}, reorder point ${line.reorderPoint}, in ${line.catalogue}`,
      `  ${line.url}`,
    ]),
    ...(more > 0 ? ['', `And ${more} more.`] : []),
    '',
    `You get this e-mail because you asked for a daily low-stock digest. Turn it off on your profile: ${publicUrl}/profile`,
    '',
    '— Stockroom',
  ].join('\n');
  const cell = 'padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:left';
  const rows = lines
    .map(
      (line) =>
        `<tr><td style="${cell}"><a href="${escapeHtml(line.url)}">${escapeHtml(line.name)}</a></td><td style="${cell}">${line.stock}</td><td style="${cell}">${line.reorderPoint}</td><td style="${cell}">${escapeHtml(line.catalogue)}</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">
<table role="presentation" width="100%" style="max-width:640px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(subject)}</h1>
<p style="margin:0 0 16px">Hello ${escapeHtml(userName)},</p>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<table style="border-collapse:collapse;width:100%;margin:0 0 16px">
<tr><th style="${cell}">Product</th><th style="${cell}">Stock</th><th style="${cell}">Reorder point</th><th style="${cell}">Catalogue</th></tr>
${rows}
</table>
${more > 0 ? `<p style="margin:0 0 16px">And ${more} more.</p>` : ''}
<p style="margin:24px 0 0;color:#6b7280;font-size:13px">You get this e-mail because you asked for a daily low-stock digest. <a href="${escapeHtml(`${publicUrl}/profile`)}">Turn it off on your profile</a>.</p>
</td></tr></table></body></html>`;
  return { to, subject, text, html };
}
