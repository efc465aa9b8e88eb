import { ScreenSuspense } from '@/app/components/ScreenSuspense.js';
import { Outlet } from 'react-router';
import { ProfileTabs } from '@/features/profile/components/ProfileTabs.js';

/** The profile sub-layout: the tab bar above 'My Profile' or 'Change Password'. */
export function ProfileLayout() {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <ProfileTabs />
      <ScreenSuspense>
        <Outlet />
      </ScreenSuspense>
    </div>
  );
}
