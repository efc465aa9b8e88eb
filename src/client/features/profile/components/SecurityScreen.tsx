import { tabTitle } from '@/lib/texts.js';
import { AccountDataSection } from './security/AccountDataSection.js';
import { PasskeysSection } from './security/PasskeysSection.js';
import { SessionsSection } from './security/SessionsSection.js';
import { TwoFactorSection } from './security/TwoFactorSection.js';

/** The profile's 'Security' tab: how the account signs in, and where it is signed in. */
export function SecurityScreen() {
  return (
    <div className="space-y-6">
      <title>{tabTitle('Security')}</title>
      <h1 className="sr-only">Security</h1>
      <TwoFactorSection />
      <PasskeysSection />
      <SessionsSection />
      <AccountDataSection />
    </div>
  );
}
