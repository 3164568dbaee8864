import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import Unsubscribe from './Unsubscribe';

describe('Unsubscribe page', () => {
  it('turns reminders off with the link of the e-mail, after one press', async () => {
    let asked: string | null = null;
    server.use(
      http.post('/api/unsubscribe', ({ request }) => {
        asked = new URL(request.url).search;
        return apiJson('POST /api/unsubscribe', { unsubscribed: true });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Unsubscribe />, '/unsubscribe?u=user1&t=abc');
    expect(asked).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Stop reminder e-mails' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Done: you will get no more reminder e-mails.'));
    expect(asked).toBe('?u=user1&t=abc');
  });

  it('says when the link is forged or incomplete', async () => {
    server.use(
      http.post('/api/unsubscribe', () =>
        apiJson(
          'POST /api/unsubscribe',
          { message: 'This unsubscribe link is not valid.', code: 'auth.unsubscribe_link_invalid', params: { field: 't' } },
          400,
        ),
      ),
    );
    const user = userEvent.setup();
    const view = renderAt(<Unsubscribe />, '/unsubscribe?u=user1&t=forged');
    await user.click(screen.getByRole('button', { name: 'Stop reminder e-mails' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('This unsubscribe link is not valid.'));
    view.unmount();
    renderAt(<Unsubscribe />, '/unsubscribe?u=user1');
    expect(screen.getByRole('button', { name: 'Stop reminder e-mails' }).hasAttribute('disabled')).toBe(true);
  });
});
