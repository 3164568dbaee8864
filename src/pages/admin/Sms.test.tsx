import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { apiError } from '../../components/market/testing';
import type { SmsMessage } from '../../api/sms';
import Sms from './Sms';

const msg = (over: Partial<SmsMessage>): SmsMessage => ({
  id: 1,
  to: '+12125550100',
  text: 'XG Marketplace: your verification code is ••••••. It expires in 10 minutes.',
  purpose: 'verification',
  status: 'accepted',
  textId: '1001',
  error: null,
  quotaRemaining: 41,
  createdAt: '2025-03-01T10:00:00.000Z',
  statusCheckedAt: null,
  ...over,
});

/** A fake of the sms admin API over mutable state; every answer is one the server could send. */
function smsServer(initial: { token?: string | null; messages?: SmsMessage[]; quota?: number } = {}) {
  const state = { token: initial.token ?? null, messages: [...(initial.messages ?? [])], quota: initial.quota ?? 42 };
  const sent: { puts: unknown[]; tests: unknown[]; balances: number; refreshes: number } = { puts: [], tests: [], balances: 0, refreshes: 0 };
  const masked = () => (state.token ? `••••${state.token.slice(-4)}` : null);
  server.use(
    http.get('/api/admin/get-textbelt-token', () => apiJson('GET /api/admin/get-textbelt-token', { id: 1, token: masked() })),
    http.put('/api/admin/update-textbelt-token-by-id/:id', async ({ request, params }) => {
      const body = (await request.json()) as { token: string };
      sent.puts.push({ id: params.id, ...body });
      state.token = body.token || null;
      return apiJson('PUT /api/admin/update-textbelt-token-by-id/:id', { id: 1, token: masked() });
    }),
    http.get('/api/admin/get-textbelt-balance/:id', () => {
      sent.balances++;
      return apiJson('GET /api/admin/get-textbelt-balance/:id', { quotaRemaining: state.quota });
    }),
    http.post('/api/admin/send-textbelt-test-sms', async ({ request }) => {
      const body = (await request.json()) as { phone: string; message?: string };
      sent.tests.push(body);
      const m = msg({
        id: state.messages.length + 10,
        to: body.phone,
        text: body.message ?? 'XG Marketplace: this is a test message.',
        purpose: 'test',
        status: state.token ? 'accepted' : 'outbox',
        textId: state.token ? 'tb77' : null,
      });
      state.messages.unshift(m);
      return apiJson('POST /api/admin/send-textbelt-test-sms', { message: m });
    }),
    http.get('/api/admin/get-textbelt-messages', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 20);
      return apiJson('GET /api/admin/get-textbelt-messages', {
        messages: state.messages.slice((page - 1) * pageSize, page * pageSize),
        total: state.messages.length,
        page,
        pageSize,
        configured: state.token !== null,
      });
    }),
    http.post('/api/admin/refresh-textbelt-statuses', () => {
      sent.refreshes++;
      const under = state.messages.filter((m) => m.textId && ['accepted', 'sending'].includes(m.status));
      for (const m of under) m.status = 'delivered';
      return apiJson('POST /api/admin/refresh-textbelt-statuses', { checked: under.length, updated: under.length, failed: 0 });
    }),
  );
  return { state, sent };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Recent messages' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('admin SMS (Textbelt)', () => {
  it('sets the key, shows it masked, and checks the balance', async () => {
    const srv = smsServer();
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    expect(await screen.findByText('No key set: messages go to the outbox.')).toBeTruthy();
    expect(screen.getByText('Set a key to see its balance.')).toBeTruthy();
    expect(await screen.findByText('No key is set: new messages go to the outbox.')).toBeTruthy();

    const field = screen.getByLabelText('New key');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    expect(screen.getByText('Enter a key.')).toBeTruthy();
    await user.type(field, 'bad key!');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    expect(screen.getByText('A key holds only letters, digits, - and _.')).toBeTruthy();
    expect(srv.sent.puts).toEqual([]);

    await user.clear(field);
    await user.type(field, ' live_key_9876 ');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    expect((await screen.findByRole('status')).textContent).toBe('The key is saved.');
    expect(srv.sent.puts).toEqual([{ id: '1', token: 'live_key_9876' }]);
    expect(screen.getByTestId('sms-key-current').textContent).toBe('••••9876');
    expect((field as HTMLInputElement).value).toBe(''); // the key is not kept on the page
    await waitFor(() => expect(screen.queryByText('No key is set: new messages go to the outbox.')).toBeNull());

    expect(screen.getByText('Ask Textbelt how many messages the key has left.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Check balance' }));
    expect(await screen.findByText('Messages left: 42')).toBeTruthy();
    expect(srv.sent.balances).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Remove key' }));
    expect(await screen.findByText('The key is removed: messages go to the outbox.')).toBeTruthy();
    expect(srv.sent.puts.at(-1)).toEqual({ id: '1', token: '' });
    expect(screen.getByText('Set a key to see its balance.')).toBeTruthy();
  });

  it('shows why the balance could not be read, in the page’s language', async () => {
    smsServer({ token: 'live_key_9876' });
    server.use(
      http.get('/api/admin/get-textbelt-balance/:id', () => apiError('GET /api/admin/get-textbelt-balance/:id', 503, 'sms.provider_http', { status: 500 })),
    );
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await user.click(await screen.findByRole('button', { name: 'Check balance' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Textbelt could not be reached (HTTP status 500).');
  });

  it('sends a test message and shows what became of it, first in the list', async () => {
    const srv = smsServer({ token: 'live_key_9876', messages: [msg({ id: 1 })] });
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await screen.findByRole('table', { name: 'Recent messages' });
    const phone = screen.getByLabelText('Phone (US)');
    await user.type(phone, '+44 20 7946 0958');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));
    expect(screen.getByText('Enter a US phone number, for example (212) 555-0123.')).toBeTruthy();
    expect(srv.sent.tests).toEqual([]);

    await user.clear(phone);
    await user.type(phone, '(212) 555-0199');
    await user.type(screen.getByLabelText('Message (optional)'), 'Hello from staff');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));
    expect((await screen.findByRole('status')).textContent).toBe('Test message to +12125550199: Accepted by Textbelt.');
    expect(srv.sent.tests).toEqual([{ phone: '+12125550199', message: 'Hello from staff' }]);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toEqual([new Date(msg({}).createdAt).toLocaleString('en'), '+12125550199', 'Test', 'Hello from staff', 'Accepted by Textbelt', 'tb77']);
  });

  it('says a refused test message with Textbelt’s words', async () => {
    smsServer({ token: 'live_key_9876' });
    server.use(
      http.post('/api/admin/send-textbelt-test-sms', () =>
        apiJson('POST /api/admin/send-textbelt-test-sms', {
          message: msg({ status: 'refused', error: null, failure: { code: 'sms.refused', detail: 'Out of quota' }, textId: null, purpose: 'test' }),
        }),
      ),
    );
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await user.type(await screen.findByLabelText('Phone (US)'), '2125550100');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));
    expect((await screen.findByRole('status')).textContent).toBe('Test message to +12125550100: Refused by Textbelt (Out of quota).');
  });

  it('lists the messages with their delivery status and refreshes them from Textbelt', async () => {
    const srv = smsServer({
      token: 'live_key_9876',
      messages: [
        msg({ id: 3, status: 'sending', textId: '1003' }),
        msg({ id: 2, status: 'refused', textId: null, error: null, failure: { code: 'sms.refused', detail: 'Invalid phone number or bad request.' } }),
        msg({ id: 1, status: 'outbox', textId: null, purpose: 'test', text: 'Ping' }),
      ],
    });
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await screen.findByRole('table', { name: 'Recent messages' });
    expect(rows().map((r) => r.slice(1))).toEqual([
      ['+12125550100', 'Phone code', msg({}).text, 'Sending', '1003'],
      ['+12125550100', 'Phone code', msg({}).text, 'Refused by TextbeltInvalid phone number or bad request.', '—'],
      ['+12125550100', 'Test', 'Ping', 'Outbox', '—'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Refresh delivery statuses' }));
    expect((await screen.findByRole('status')).textContent).toBe('Messages checked: 1; changed: 1; could not be asked: 0.');
    expect(srv.sent.refreshes).toBe(1);
    await waitFor(() => expect(rows()[0][4]).toBe('Delivered'));
  });

  it('pages through the messages', async () => {
    smsServer({ messages: Array.from({ length: 25 }, (_, i) => msg({ id: 25 - i, to: `+121255501${String(25 - i).padStart(2, '0')}` })) });
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await screen.findByRole('table', { name: 'Recent messages' });
    expect(rows()).toHaveLength(20);
    await user.click(within(screen.getByRole('navigation', { name: 'Message pages' })).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()[0][1]).toBe('+12125550105');
  });
});

describe('admin SMS in Spanish: what went wrong with Textbelt', () => {
  // The server sends codes (an error's code, a message's failure); the page words them. Only
  // Textbelt's own words, and the English of rows stored before the codes, are shown as they came.
  it('words a balance Textbelt cannot answer and the messages it did not take in Spanish', async () => {
    smsServer({
      token: 'live_key_9876',
      messages: [
        msg({ id: 4, status: 'error', textId: null, error: null, failure: { code: 'sms.not_json' } }),
        msg({ id: 3, status: 'error', textId: null, error: null, failure: { code: 'sms.timeout', params: { seconds: 10 } } }),
        msg({ id: 2, status: 'refused', textId: null, error: null, failure: { code: 'sms.refused', detail: 'Out of quota' } }),
        msg({ id: 1, status: 'error', textId: null, error: 'no answer in 10 s' }),
      ],
    });
    server.use(http.get('/api/admin/get-textbelt-balance/:id', () => apiError('GET /api/admin/get-textbelt-balance/:id', 503, 'sms.provider_not_json')));
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<Sms />, '/es/admin/dashboard/admin/sms');
      await user.click(await screen.findByRole('button', { name: 'Consultar saldo' }));
      expect((await screen.findByRole('alert')).textContent).toBe('No se pudo contactar con Textbelt (no se pudo leer su respuesta).');
      const table = await screen.findByRole('table', { name: 'Mensajes recientes' });
      const statuses = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[4].textContent);
      expect(statuses).toEqual([
        'Textbelt no respondeNo se pudo leer la respuesta de Textbelt (no era su JSON).',
        'Textbelt no respondeTextbelt no respondió en 10 s.',
        'Rechazado por TextbeltOut of quota',
        'Textbelt no respondeno answer in 10 s',
      ]);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});

describe('admin SMS: outcomes after a language switch, buttons while they run', () => {
  it('words the saved key and the test message’s result again in Spanish', async () => {
    smsServer();
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    await user.type(await screen.findByLabelText('New key'), 'live_key_9876');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    expect(await screen.findByText('The key is saved.')).toBeTruthy();
    await user.type(screen.getByLabelText('Phone (US)'), '2125550100');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));
    expect(await screen.findByText('Test message to +12125550100: Accepted by Textbelt.')).toBeTruthy();

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual([
      'La clave se guardó.',
      'Mensaje de prueba a +12125550100: Aceptado por Textbelt.',
    ]);
  });

  // jsdom keeps focus on a disabled button (Chromium drops it to <body>): "kept" is focused and not `disabled`.
  it('keeps focus on "Remove key" while it runs and sends it once', async () => {
    const srv = smsServer({ token: 'live_key_9876' });
    let release: (() => void) | null = null;
    server.use(
      http.put('/api/admin/update-textbelt-token-by-id/:id', async () => {
        srv.sent.puts.push('remove');
        await new Promise<void>((resolve) => (release = resolve));
        return apiJson('PUT /api/admin/update-textbelt-token-by-id/:id', { id: 1, token: null });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Sms />, '/admin/dashboard/admin/sms');
    const remove = await screen.findByRole<HTMLButtonElement>('button', { name: 'Remove key' });
    remove.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(release).not.toBeNull());
    expect(document.activeElement).toBe(remove);
    expect(remove.disabled).toBe(false);
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    await user.click(remove);
    expect(srv.sent.puts).toEqual(['remove']);
    release!();
    expect(await screen.findByText('The key is removed: messages go to the outbox.')).toBeTruthy();
  });
});
