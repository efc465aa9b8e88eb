import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { ProfileTabs } from '@/features/profile/components/ProfileTabs.js';

/** The profile sub-layout: the tab bar above 'My Profile' or 'Change Password'. */
export function ProfileLayout() {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <ProfileTabs />
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
