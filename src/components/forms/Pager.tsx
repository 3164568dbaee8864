import { useTranslation } from 'react-i18next';
import { BusyButton } from './BusyButton';

interface Props {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Names the navigation landmark, e.g. "Pending users pages". */
  label: string;
  disabled?: boolean;
}

/**
 * Previous / next through a paginated list, with "page x of y" announced. Its buttons keep focus
 * while the page is read and at either end (aria-disabled, presses ignored): pressing Next onto
 * the last page leaves focus on it.
 */
export function Pager({ page, pageSize, total, onPage, label, disabled }: Props) {
  const { t } = useTranslation('master');
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (total <= pageSize && page <= 1) return null;
  return (
    <nav aria-label={label} style={{ display: 'flex', alignItems: 'center', gap: 12, marginTop: 12 }}>
      <BusyButton className="btn btn-sm btn-white" busy={!!disabled} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </BusyButton>
      <span aria-live="polite">{t('pager.status', { page, pages, total })}</span>
      <BusyButton className="btn btn-sm btn-white" busy={!!disabled} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </BusyButton>
    </nav>
  );
}
