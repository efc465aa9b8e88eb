import { describe, expect, it } from 'vitest';
import { templates } from '../../../../src/server/infra/mail/templates.js';
import { codeIn } from '../../support/inbox.js';

const PUBLIC_URL = 'https://stock.example.com';
const TO = 'ada+shop@example.com';

describe('mail templates', () => {
  it.each([
    ['confirmAccount', templates.confirmAccount, 'confirm-account'],
    ['resetPassword', templates.resetPassword, 'reset-password'],
  ] as const)(
    '%s: text and HTML carry the code, its expiry and a link with the e-mail',
    (_name, template, screen) => {
      const mail = template(PUBLIC_URL, TO, 'Ada', '042917');
      const link = `${PUBLIC_URL}/auth/${screen}?email=ada%2Bshop%40example.com`;
      expect(mail.to).toBe(TO);
      expect(codeIn(mail)).toBe('042917');
      for (const body of [mail.text, mail.html]) {
        expect(body).toContain('042917');
        expect(body).toContain('10 minutes');
        expect(body).toContain(link);
      }
      expect(mail.html).toContain(`href="${link}"`);
      // The link never carries the code: it has to come from the mail itself.
      expect(link).not.toContain('042917');
    },
  );

  it('escapes what users typed in the HTML body', () => {
    const name = '<img src=x onerror="alert(1)">&';
    for (const mail of [
      templates.confirmAccount(PUBLIC_URL, TO, name, '123456'),
      templates.accountExists(PUBLIC_URL, TO, name),
      templates.passwordChanged(PUBLIC_URL, TO, name),
      templates.emailChanged(PUBLIC_URL, TO, name, {
        from: TO,
        to: '"><script>x</script>@example.com',
      }),
    ]) {
      expect(mail.html).not.toContain('<img');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;');
      expect(mail.text).toContain(name);
    }
  });

  it('mails without a code do not look like they carry one', () => {
    for (const mail of [
      templates.accountExists(PUBLIC_URL, TO, 'Ada'),
      templates.passwordChanged(PUBLIC_URL, TO, 'Ada'),
      templates.emailChanged(PUBLIC_URL, TO, 'Ada', { from: TO, to: 'new@example.com' }),
    ]) {
      expect(codeIn(mail)).toBeUndefined();
      expect(mail.text).not.toContain('expires');
      expect(mail.html).toContain('<!doctype html>');
      expect(mail.text.length).toBeGreaterThan(0);
    }
  });
});
