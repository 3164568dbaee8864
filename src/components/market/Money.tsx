import { formatUsd } from '../../lib/money';

/** An amount in integer cents shown as dollars with 2 decimals. */
export function Money({ cents }: { cents: number | null | undefined }) {
  if (cents == null) return <span>—</span>;
  return <span className="money">{formatUsd(cents)}</span>;
}
