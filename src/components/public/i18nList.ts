import type { TFunction } from 'i18next';

/** An array from the translations (returnObjects), or [] while the key is missing. */
export function tList<T>(t: TFunction, key: string): T[] {
  const v = t(key, { returnObjects: true }) as unknown;
  return Array.isArray(v) ? (v as T[]) : [];
}

export interface Section {
  h: string;
  p: string[];
}
