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
  // One keyed list (a page keyed by its number wherever it shows): the link of page 1 or of the
  // last page, pressed, stays the same element when it joins the window around the current page.
  const entries: (number | 'gap-start' | 'gap-end')[] = [];
  if (from > 1) entries.push(1);
  if (from > 2) entries.push('gap-start');
  for (let i = from; i <= to; i++) entries.push(i);
  if (to < pages - 1) entries.push('gap-end');
  if (to < pages) entries.push(pages);

  // In place (`onPage`), every page and both arrows stay links, the current page marked and the
  // ends refused with aria-disabled: the link pressed keeps keyboard focus when it becomes the
  // current page or reaches an end, as the master lists' Pager does. With URLs, the new page loads.
  const inPlace = !hrefFor;
  const item = (p: number, label: string, aria?: string, current = false) => {
    if (!inPlace) {
      if (current) return <span aria-current="page">{label}</span>;
      return (
        <Link href={hrefFor(p)} aria-label={aria}>
          {label}
        </Link>
      );
    }
    const outside = p < 1 || p > pages;
    return (
      <a
        href="#"
        aria-label={aria}
        aria-current={current ? 'page' : undefined}
        aria-disabled={outside || undefined}
        onClick={(e) => {
          e.preventDefault();
          if (!current && !outside) onPage?.(p);
        }}
      >
        {label}
      </a>
    );
  };

  return (
    <nav aria-label={t('pagination.label')}>
      <ul className={styles.pagination}>
        {[
          (page > 1 || inPlace) && <li key="previous">{item(page - 1, '‹', t('pagination.previous'))}</li>,
          ...entries.map((p) =>
            typeof p === 'number' ? (
              <li key={p}>{item(p, String(p), t('pagination.page', { page: p }), p === page)}</li>
            ) : (
              <li key={p} aria-hidden="true">
                …
              </li>
            ),
          ),
          (page < pages || inPlace) && <li key="next">{item(page + 1, '›', t('pagination.next'))}</li>,
        ]}
      </ul>
    </nav>
  );
}
