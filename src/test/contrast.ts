import fs from 'node:fs';
import path from 'node:path';

// WCAG contrast of an element's inline colours, with the var(--…) of src/styles/global.css
// resolved (jsdom applies no style sheets, so the colours are read from the inline style).

const ROOT_VARS = Object.fromEntries(
  [...fs.readFileSync(path.resolve(import.meta.dirname, '../styles/global.css'), 'utf8').matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\b/g)].map((m) => [
    m[1],
    m[2],
  ]),
);

function rgb(colour: string): [number, number, number] {
  const v = /^var\((--[\w-]+)\)$/.exec(colour.trim());
  const c = v ? ROOT_VARS[v[1]] : colour.trim();
  if (!c) throw new Error(`unknown colour ${colour}`);
  const fn = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(c);
  if (fn) return [Number(fn[1]), Number(fn[2]), Number(fn[3])];
  let hex = c.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((x) => x + x).join('');
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (x: number) => (x / 255 <= 0.04045 ? x / 255 / 12.92 : ((x / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of two CSS colours (hex, rgb() or a var() of global.css's :root). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
