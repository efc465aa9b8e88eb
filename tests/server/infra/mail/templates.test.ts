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

describe('text a user typed, in a mail', () => {
  const typed = 'Call +1 555 0100 https://spam.example/win';
  const mails = [
    templates.confirmAccount(PUBLIC_URL, TO, typed, '123456'),
    templates.confirmEmailChange(
      PUBLIC_URL,
      TO,
      { name: typed, from: 'old@example.com' },
      '123456',
    ),
    templates.invitation(PUBLIC_URL, TO, {
      inviter: typed,
      inviterEmail: 'ines@example.com',
      catalogue: typed,
      role: 'Editor',
      roleDescription: 'Products and stock.',
      expiresAt: Date.parse('2026-01-08T00:00:00Z'),
    }),
    templates.webhookDisabled(PUBLIC_URL, TO, 'Ada', {
      url: typed,
      catalogue: typed,
      catalogueId: '00000000-0000-4000-8000-000000000000',
      lastError: 'HTTP 500',
    }),
  ];

  it.each(mails.map((mail) => [mail.subject, mail]))(
    '"%s" keeps it out of the subject and quotes it in the body, as someone\'s',
    (_subject, mail) => {
      expect(mail.subject).not.toContain('555');
      expect(mail.subject).not.toMatch(/https?:|www\.|\.example/);
      expect(mail.text).toContain(`“${typed}”`);
      // Never the greeting: that would read as Stockroom's words to its reader.
      expect(mail.text).not.toContain(`Hello ${typed}`);
      expect(mail.text).toMatch(/named|typed|they/);
    },
  );

  it('says who typed it in an invitation: the inviter, by their confirmed address', () => {
    expect(mails[2]!.text).toContain('ines@example.com invited you to join a catalogue');
    expect(mails[2]!.text).toContain(`themselves “${typed}”: these names are theirs`);
  });

  it('is kept to one line', () => {
    const mail = templates.confirmAccount(PUBLIC_URL, TO, 'Ada\nSubject: free\r\n\u2028x', '1');
    expect(mail.text).toContain('“Ada Subject: free x”');
  });
});
