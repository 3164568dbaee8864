import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asError, shownError } from '../../api/client';

/**
 * The busy / error / success cycle of one form's submit. The action is the store's; this only
 * tracks what the form shows; a second submit while one runs is ignored.
 */
export function useFormAction() {
  // A refusal is kept as the error (its code and params) and worded at each render, in the page's
  // language of the moment: this re-renders on a language switch, which re-words it.
  useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setError] = useState<string | Error | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const running = useRef(false);

  const run = useCallback(async <T>(action: () => Promise<T>, successMessage?: string): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      const out = await action();
      if (successMessage) setSuccess(successMessage);
      return out;
    } catch (e) {
      setError(asError(e));
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  return { busy, error: shownError(failure), success, run, setError, setSuccess };
}
