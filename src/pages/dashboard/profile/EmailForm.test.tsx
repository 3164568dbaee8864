import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../../test/server';
import { apiJson } from '../../../test/contract';
import { renderAt } from '../../../test/render';
import { EmailForm } from './EmailForm';

// The e-mail change form checks and sends the address as the server reads it (NFKC, lower case):
// one typed with an IME in fullwidth mode is refused by no rule of the server's, so not by the form.
describe('change e-mail', () => {
  it('takes an address typed in fullwidth form and sends it as the server stores it', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/email-reset', async ({ request }) => {
        sent.push(await request.json());
        return apiJson('POST /api/email-reset', { pendingEmail: 'ann@example.net' });
      }),
    );
    const user = userEvent.setup();
    renderAt(<EmailForm current="ann@example.com" />, '/admin/dashboard/my-profile');
    await user.type(screen.getByLabelText('New e-mail'), 'ＡＮＮ＠ｅｘａｍｐｌｅ．ｎｅｔ');
    await user.type(screen.getByLabelText('Your password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() => expect(sent).toEqual([{ newEmail: 'ann@example.net', password: 'correct horse battery' }]));
  });

  it('calls the current address in fullwidth form the same address', async () => {
    const user = userEvent.setup();
    renderAt(<EmailForm current="ann@example.com" />, '/admin/dashboard/my-profile');
    await user.type(screen.getByLabelText('New e-mail'), 'ａｎｎ＠ｅｘａｍｐｌｅ．ｃｏｍ');
    await user.type(screen.getByLabelText('Your password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    expect(await screen.findByText('This is already your e-mail address.')).toBeTruthy();
  });
});
