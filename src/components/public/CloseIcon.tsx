// The close icon of the overlays (a file of its own: only lazy chunks use it).
const P = { 'aria-hidden': true, focusable: false, viewBox: '0 0 24 24' } as const;

export const CloseIcon = () => (
  <svg {...P}><path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z" /></svg>
);
