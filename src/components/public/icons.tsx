// Tiny inline icons (decorative: the buttons carry the accessible names).
const P = { 'aria-hidden': true, focusable: false, viewBox: '0 0 24 24' } as const;

export const SearchIcon = () => (
  <svg {...P}><path d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z" /></svg>
);
export const MenuIcon = () => (
  <svg {...P}><path d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" /></svg>
);
export const PersonIcon = () => (
  <svg {...P}><path d="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4 0-8 2-8 5v2h16v-2c0-3-4-5-8-5z" /></svg>
);
export const CloseIcon = () => (
  <svg {...P}><path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z" /></svg>
);
