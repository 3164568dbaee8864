import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { asError, shownError } from '../../api/client';

/**
 * Runs one row's action at a time, remembering which row is busy and how the last one ended. The
 * outcome is kept unworded (the error itself, the success as a function of the 'master' t) and
 * worded at each render, in the page's language of the moment: a language switch re-words it.
 */
export function useRowAction() {
  const { t } = useTranslation('master'); // re-rendered (re-worded) on a language switch
  const [busyId, setBusyId] = useState<string | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const [success, setSuccess] = useState<{ word: (t: TFunction<'master'>) => string } | null>(null);

  async function run(rowId: string, action: () => Promise<void>, successMessage: (t: TFunction<'master'>) => string): Promise<void> {
    setBusyId(rowId);
    setFailure(null);
    setSuccess(null);
    try {
      await action();
      setSuccess({ word: successMessage });
    } catch (e) {
      setFailure(asError(e));
    } finally {
      setBusyId(null);
    }
  }
  return { busyId, error: shownError(failure), success: success ? success.word(t) : null, run };
}
