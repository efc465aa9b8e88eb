import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { DocumentTitle } from '@/components/DocumentTitle.js';

interface PageHeaderProps {
  title: string;
  back: { to: string; label: string };
}

export function PageHeader({ title, back }: PageHeaderProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <DocumentTitle>{title}</DocumentTitle>
      <h1 className="text-3xl font-bold tracking-tight text-gray-900">{title}</h1>
      <Link to={back.to} className={buttonClasses('secondary')}>
        <span aria-hidden="true">←</span> {back.label}
      </Link>
    </div>
  );
}
