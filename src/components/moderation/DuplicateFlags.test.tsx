import { describe, expect, it } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import i18n from 'i18next';
import type { DuplicateFlag } from '../../api/moderation';
import { renderAt } from '../../test/render';
import { DuplicateFlags } from './DuplicateFlags';

const flag = (over: Partial<DuplicateFlag>): DuplicateFlag => ({
  adId: 'a1',
  otherAdId: 'zz1',
  otherAdTitle: 'Sweet new girl in town, call now',
  otherAdStatus: 'in_review',
  otherOwner: { id: 'u9', email: 'twin@example.com', nickname: 'twin' },
  kind: 'text',
  distance: null,
  ...over,
});

describe('duplicate flags shown to the reviewer', () => {
  // Another account's ad with the same title and description (moderation.duplicates.ts textHash)
  // is named for what it shares, in the reviewer's language, with links to it and its owner.
  it('says that another account’s ad has the same text, in English, Spanish and Portuguese', async () => {
    const flags = [flag({}), flag({ otherAdId: 'zz2', kind: 'phone', otherAdTitle: 'Same number' })];
    const seen: Record<string, string> = {};
    for (const lng of ['en', 'es', 'pt']) {
      await act(() => i18n.changeLanguage(lng));
      renderAt(<DuplicateFlags flags={flags} />);
      const items = within(screen.getByRole('note')).getAllByRole('listitem');
      expect(within(items[0]).getByRole('link', { name: 'Sweet new girl in town, call now' }).getAttribute('href')).toBe(
        '/admin/dashboard/admin/search-ads?query=zz1',
      );
      seen[lng] = items[0].textContent!.split(' Sweet new girl')[0];
      expect(items[1].textContent).not.toContain(seen[lng]);
      cleanup();
    }
    expect(seen).toEqual({
      en: 'Same title and description, word for word, as',
      es: 'Mismo título y descripción, palabra por palabra, que',
      pt: 'Mesmo título e descrição, palavra por palavra, que',
    });
  });
});
