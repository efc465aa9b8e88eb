import type { ReactNode } from 'react';
import { Card } from '@/components/ui/Card.js';
import { DocumentTitle } from '@/components/DocumentTitle.js';

interface SettingsPanelProps {
  title: string;
  description: string;
  children: ReactNode;
}

export function SettingsPanel({ title, description, children }: SettingsPanelProps) {
  return (
    <Card className="px-6 py-8 sm:px-8">
      <DocumentTitle>{title}</DocumentTitle>
      <h1 className="text-xl font-bold tracking-tight text-gray-900">{title}</h1>
      <p className="mt-1 text-sm text-gray-600">{description}</p>
      <div className="mt-8">{children}</div>
    </Card>
  );
}
