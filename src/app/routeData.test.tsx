import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { useRouteData } from './routeData';
import type { Loaded } from './loaders';

describe('useRouteData when a page’s answer cannot be read', () => {
  // A loader whose answer is not JSON (a proxy's or a captive portal's HTML page) fails with the
  // JSON parser's SyntaxError: the page says 'Something went wrong.' in its language, never the
  // parser's English ("Unexpected token '<'…").
  it('words an unparseable answer as "Algo salió mal." on a Spanish page', async () => {
    await i18n.changeLanguage('es');
    const load = () => Promise.reject(new SyntaxError(`Unexpected token '<', "<!DOCTYPE "... is not valid JSON`)) as Promise<Loaded<unknown>>;
    const { result } = renderHook(() => useRouteData('test:unparseable', load));
    await waitFor(() => expect(result.current.error).toBe('Algo salió mal.'));
  });
});
