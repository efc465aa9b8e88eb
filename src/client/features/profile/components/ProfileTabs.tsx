import { NavLink, useLocation, useNavigate } from 'react-router';
import { paths } from '@/lib/paths.js';

const tabs = [
  { name: 'My Profile', to: paths.profile.edit.getHref() },
  { name: 'Change Password', to: paths.profile.changePassword.getHref() },
  { name: 'Security', to: paths.profile.security.getHref() },
];

/** The profile sub-layout's tab bar: a select on small screens, tabs on larger ones. */
export function ProfileTabs() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = tabs.find((tab) => tab.to === pathname.replace(/\/+$/, '')) ?? tabs[0]!;

  return (
    <div>
      <div className="sm:hidden">
        <label htmlFor="profile-tab" className="sr-only">
          Select a tab
        </label>
        <select
          id="profile-tab"
          value={current.to}
          onChange={(event) => void navigate(event.target.value)}
          className="block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-base text-gray-900 shadow-sm ring-1 ring-inset ring-gray-300 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
        >
          {tabs.map((tab) => (
            <option key={tab.to} value={tab.to}>
              {tab.name}
            </option>
          ))}
        </select>
      </div>
      <nav aria-label="Profile" className="hidden border-b border-gray-200 sm:block">
        <ul className="-mb-px flex gap-8">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end
                className={({ isActive }) =>
                  `inline-block border-b-2 px-1 pb-3 text-sm font-semibold focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
                    isActive
                      ? 'border-indigo-600 text-indigo-700'
                      : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-800'
                  }`
                }
              >
                {tab.name}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
