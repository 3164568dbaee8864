import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Photo } from '../../api/ads';
import { Dialog } from './Dialog';
import { MAIN_SIZES, srcSetOf } from './photos';
import styles from './market.module.css';

/**
 * Photo gallery: a main photo, a row of thumbnail buttons (Tab to them, Enter or Space to show,
 * arrow keys to step), and a larger view in a dialog with previous / next buttons.
 */
export function Gallery({ photos, title }: { photos: readonly Photo[]; title: string }) {
  const { t } = useTranslation('market');
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  if (!photos.length) return null;
  const n = photos.length;
  const current = photos[Math.min(index, n - 1)];
  const alt = (i: number) => t('gallery.photoOf', { title, n: i + 1, total: n });
  const step = (d: number) => setIndex((i) => (i + d + n) % n);
  const onArrows = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      step(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      step(-1);
    }
  };

  return (
    <div className={styles.gallery}>
      <button type="button" className={styles.mainBtn} onClick={() => setOpen(true)} aria-label={t('gallery.enlarge', { n: index + 1, total: n })}>
        <img
          className={styles.mainPhoto}
          src={current.url}
          srcSet={srcSetOf(current)}
          sizes={MAIN_SIZES}
          alt={alt(index)}
          width={current.width}
          height={current.height}
          fetchPriority={index === 0 ? 'high' : undefined}
        />
      </button>
      {n > 1 && (
        <ul className={styles.thumbs} aria-label={t('gallery.thumbnails')} onKeyDown={onArrows}>
          {photos.map((p, i) => (
            <li key={p.url}>
              <button
                type="button"
                aria-current={i === index ? 'true' : undefined}
                aria-label={t('gallery.show', { n: i + 1, total: n })}
                onClick={() => setIndex(i)}
              >
                <img src={p.thumbUrl} alt="" loading="lazy" decoding="async" width={72} height={72} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <Dialog title={alt(index)} onClose={() => setOpen(false)} wide>
          <div onKeyDown={onArrows}>
            <img className={styles.large} src={current.url} alt={alt(index)} />
            <div className={styles.actions}>
              {n > 1 && (
                <>
                  <button type="button" className="btn btn-white" onClick={() => step(-1)}>
                    {t('gallery.previous')}
                  </button>
                  <button type="button" className="btn btn-white" onClick={() => step(1)}>
                    {t('gallery.next')}
                  </button>
                </>
              )}
              <button type="button" className="btn btn-primary" onClick={() => setOpen(false)}>
                {t('close')}
              </button>
            </div>
          </div>
        </Dialog>
      )}
    </div>
  );
}
