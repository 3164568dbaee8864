// Responsive images from the two sizes every ad photo is stored in (server/modules/ads/ads.images.ts:
// a thumbnail of at most 400 px and a large copy of at most 1280 px, same proportions).

/** The srcset of a photo: both stored sizes, by width (none when the thumbnail's width is unknown). */
export const srcSetOf = (p: { url: string; width: number; thumbUrl: string; thumbWidth?: number }): string | undefined =>
  p.thumbWidth && p.thumbWidth < p.width ? `${p.thumbUrl} ${p.thumbWidth}w, ${p.url} ${p.width}w` : undefined;

/** How wide a card's photo is shown (market.module.css .grid: columns of at least 220 px). */
export const CARD_SIZES = '(max-width: 520px) calc(100vw - 56px), 300px';

/** How wide an ad page's main photo is shown (its first column). */
export const MAIN_SIZES = '(max-width: 640px) calc(100vw - 36px), 560px';
