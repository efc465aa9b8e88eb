import type { User } from '@shared/schemas/auth.js';
import { LogoLink } from '@/components/Logo.js';
import { UserMenu } from './UserMenu.js';

export function Header({ user }: { user: User }) {
  return (
    <header className="bg-gray-900 shadow">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <LogoLink />
        <UserMenu user={user} />
      </div>
    </header>
  );
}
