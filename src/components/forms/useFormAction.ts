import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { asError, shownError } from '../../api/client';

/**
 * An outcome worded at render: given the form's t (its namespaces) and the page's language of the
 * moment, so a language switch re-words it. A plain text is shown as it is (already worded).
 */
export type Wording = string | ((t: TFunction, lng: string) => string);

/**
 * The busy / error / success cycle of one form's submit. The action is the store's; this only
 * tracks what the form shows; a second submit while one runs is ignored. `ns` is the namespace(s)
 * the outcomes given as functions are worded in.
 */
export function useFormAction(ns?: string | readonly string[]) {
  // A refusal is kept as the error (its code and params), a success as its wording, and both are
  // worded at each render, in the page's language of the moment: this re-renders on a language
  // switch, which re-words them.
  const { t, i18n } = useTranslation(ns as string | string[] | undefined);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Wording | Error | null>(null);
  const [success, setSuccessState] = useState<{ word: Wording } | null>(null);
  const running = useRef(false);

  const setError = useCallback((e: Wording | Error | null) => setFailure(() => e), []);
  const setSuccess = useCallback((s: Wording | null) => setSuccessState(s === null ? null : { word: s }), []);

  const run = useCallback(
    async <T>(action: () => Promise<T>, successMessage?: Wording): Promise<T | undefined> => {
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
    },
    [setError, setSuccess],
  );

  const word = (w: Wording) => (typeof w === 'function' ? w(t, i18n.language) : w);
  return {
    busy,
    error: typeof failure === 'function' ? word(failure) : shownError(failure),
    success: success ? word(success.word) : null,
    run,
    setError,
    setSuccess,
  };
}
