import type { ComponentProps } from 'react';

export function Card({ className = '', ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={`rounded-2xl bg-white shadow-lg ring-1 ring-gray-900/5 ${className}`}
      {...props}
    />
  );
}
