import { describe, expect, it } from 'vitest';
import { RESET_MINUTES, resetMail } from './password-reset.js';

const ws = { id: 'w1', subdomain: 'acme', name: 'Acme <Ops>', plan: 'team', created_at: new Date(0) };

describe('resetMail', () => {
  const link = 'https://acme.example.com/reset-password?token=lr.abc_DEF-123';
  const mail = resetMail('ann@acme.test', ws, link);

  it('says in text what the link is for, how long it works, and to ignore it if not asked', () => {
    expect(mail.to).toBe('ann@acme.test');
    expect(mail.subject).toBe('Reset your Lookout password (Acme <Ops>)');
    expect(mail.text).toContain(`\n\n${link}\n\n`);
    expect(mail.text).toContain(`${RESET_MINUTES} minutes`);
    expect(mail.text).toContain('If you did not ask for this, ignore this email');
  });

  it('says the same in HTML, escaped, with the link as a link', () => {
    expect(mail.html).toContain(`<a href="${link}">Reset your password</a>`);
    expect(mail.html).toContain('Acme &lt;Ops&gt;');
    expect(mail.html).not.toContain('<Ops>');
    expect(mail.html).toContain('ignore this email');
  });
});
