// Top-bar icons drawn inline: three tiny paths cost less in the script than three requests made
// with the page's largest image on a slow line. Decorative, since the buttons carry the
// accessible names.
const icon = (d: string) => () => (
  <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden="true" focusable="false">
    <path fill="#fff" d={d} />
  </svg>
);

export const SearchIcon = icon('M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z');
export const MenuIcon = icon('M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z');
export const PersonIcon = icon('M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4 0-8 2-8 5v2h16v-2c0-3-4-5-8-5z');
