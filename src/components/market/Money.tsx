import { useTranslation } from 'react-i18next';
import { formatUsd } from '../../lib/money';

/** An amount in integer cents shown as dollars with 2 decimals. */
export function Money({ cents }: { cents: number | null | undefined }) {
  const { i18n } = useTranslation(); // in the page's language, which a switch re-renders
  if (cents == null) return <span>—</span>;
  return <span className="money">{formatUsd(cents, i18n.language)}</span>;
}
