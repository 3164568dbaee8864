import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { I18nextProvider } from 'react-i18next';
import i18n from 'i18next';

export interface Rendered extends RenderResult {
  /** Every path the page navigated to, the starting one first. */
  history: string[];
  /** The current path (with its query) in the memory location. */
  currentPath: () => string;
}

/** Renders a page inside i18n and an in-memory wouter location starting at `path`. */
export function renderAt(ui: ReactElement, path = '/'): Rendered {
  const mem = memoryLocation({ path, record: true });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <Router hook={mem.hook} searchHook={mem.searchHook}>
        {ui}
      </Router>
    </I18nextProvider>,
  );
  return { ...result, history: mem.history, currentPath: () => mem.history[mem.history.length - 1] };
}
