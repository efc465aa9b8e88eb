import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Footer } from '@/app/components/Footer.js';
import operations from '../../../docs/operations.md?raw';

const DEFAULT_NAME = 'the Stockroom team';
const DEFAULT_URL = 'https://github.com/';

describe('Footer', () => {
  it('credits the default author in a new tab, spelled as the docs say', () => {
    render(<Footer />);
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`Created by ${DEFAULT_NAME}`);
    const credit = screen.getByRole('link', { name: DEFAULT_NAME });
    expect(credit).toHaveAttribute('href', DEFAULT_URL);
    expect(credit).toHaveAttribute('target', '_blank');
    expect(credit).toHaveAttribute('rel', 'noopener noreferrer');

    // Spelled as the operations guide says (.env.example too, which Vite refuses to import).
    const row = operations.split('\n').find((line) => line.startsWith('| `VITE_AUTHOR_NAME`'));
    expect(row).toContain(`| ${DEFAULT_NAME}, \`${DEFAULT_URL}\``);
  });
});
