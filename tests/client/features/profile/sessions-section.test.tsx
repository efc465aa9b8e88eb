import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionsSection } from '@/features/profile/components/security/SessionsSection.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { sent, server } from '../../support/server.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

const SESSIONS = [
  {
    id: 's1',
    device: 'Firefox 128 on Linux',
    place: 'Local network',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-02T00:00:00.000Z',
    current: true,
  },
  {
    id: 's2',
    device: 'Safari 17 on iOS (phone)',
    place: 'United Kingdom',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T12:00:00.000Z',
    current: false,
  },
];

const show = async () => {
  server.use(http.get('/api/auth/sessions', () => HttpResponse.json({ sessions: SESSIONS })));
  const rendered = renderRoute(<SessionsSection />, {
    path: '/profile/security',
    queryClient: testQueryClient(),
  });
  await screen.findByText('Safari 17 on iOS (phone)');
  return rendered;
};

beforeEach(() => {
  fire.mockResolvedValue({ isConfirmed: false, isDismissed: true });
});

describe('SessionsSection', () => {
  it('lists each device with its place, this device marked and not endable', async () => {
    await show();
    const rows = within(screen.getByRole('list', { name: 'Your sessions' })).getAllByRole(
      'listitem',
    );
    expect(rows[0]).toHaveTextContent('Firefox 128 on Linux');
    expect(rows[0]).toHaveTextContent('This device');
    expect(rows[0]).toHaveTextContent('Local network');
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('United Kingdom');
  });

  it('ends a session once confirmed, and nothing when cancelled', async () => {
    server.use(
      http.delete('/api/auth/sessions/s2', () => HttpResponse.json({ message: 'Session ended' })),
    );
    const { user } = await show();
    const end = screen.getByRole('button', { name: 'End the session of Safari 17 on iOS (phone)' });
    await user.click(end);
    await waitFor(() =>
      expect(fire).toHaveBeenCalledWith(expect.objectContaining({ title: 'End this session?' })),
    );
    expect(await sent()).toEqual([['GET', '/auth/sessions', undefined]]);

    fire.mockResolvedValueOnce({ isConfirmed: true });
    await user.click(end);
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['DELETE', '/auth/sessions/s2', undefined]);
  });

  it('ends every other session once confirmed', async () => {
    fire.mockResolvedValueOnce({ isConfirmed: true });
    server.use(
      http.post('/api/auth/sessions/revoke-others', () =>
        HttpResponse.json({ message: 'Every other session has been ended' }),
      ),
    );
    const { user } = await show();
    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));
    expect(await screen.findByText('Every other session has been ended')).toBeInTheDocument();
    expect(await sent()).toContainEqual(['POST', '/auth/sessions/revoke-others', undefined]);
  });
});
