import { useCallback, type ImgHTMLAttributes } from 'react';

type Props = { file: File } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'>;

// jsdom and very old browsers have no object URLs; the preview is then simply left out.
const canPreview = () => typeof URL.createObjectURL === 'function';

/**
 * An <img> of a file the user picked. Its object URL lives exactly as long as the element shows
 * that file: made when the element is attached (or gets another file), revoked when it is
 * detached, so removed files and closed pages leave no blob behind.
 */
export function FilePreview({ file, ...img }: Props) {
  const attach = useCallback(
    (el: HTMLImageElement) => {
      const url = URL.createObjectURL(file);
      el.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
  return canPreview() ? <img ref={attach} {...img} /> : null;
}
