import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import styles from './market.module.css';

interface Props {
  page: number;
  pageSize: number;
  total: number;
  /** The link of a page (keeps the rest of the query). */
  hrefFor?: (page: number) => string;
  /** For lists driven by a store instead of the URL. */
  onPage?: (page: number) => void;
}

/** Previous / numbered / next pages; a window of pages around the current one. */
export function Pagination({ page, pageSize, total, hrefFor, onPage }: Props) {
  const { t } = useTranslation('market');
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1) return null;
  const from = Math.max(1, page - 2);
  const to = Math.min(pages, page + 2);
  const nums: number[] = [];
  for (let i = from; i <= to; i++) nums.push(i);

  const item = (p: number, label: string, aria?: string) => {
    const current = p === page;
    if (current) return <span aria-current="page">{label}</span>;
    if (hrefFor)
      return (
        <Link href={hrefFor(p)} aria-label={aria}>
          {label}
        </Link>
      );
    return (
      <a
        href="#"
        aria-label={aria}
        onClick={(e) => {
          e.preventDefault();
          onPage?.(p);
        }}
      >
        {label}
      </a>
    );
  };

  return (
    <nav aria-label={t('pagination.label')}>
      <ul className={styles.pagination}>
        {page > 1 && <li>{item(page - 1, '‹', t('pagination.previous'))}</li>}
        {from > 1 && <li>{item(1, '1', t('pagination.page', { page: 1 }))}</li>}
        {from > 2 && <li aria-hidden="true">…</li>}
        {nums.map((p) => (
          <li key={p}>{item(p, String(p), t('pagination.page', { page: p }))}</li>
        ))}
        {to < pages - 1 && <li aria-hidden="true">…</li>}
        {to < pages && <li>{item(pages, String(pages), t('pagination.page', { page: pages }))}</li>}
        {page < pages && <li>{item(page + 1, '›', t('pagination.next'))}</li>}
      </ul>
    </nav>
  );
}
