// Top-bar icons are static SVG files (no script cost on first paint); decorative, since the
// buttons carry the accessible names.
const icon = (name: string) => () => <img src={`/icons/${name}.svg`} alt="" width={22} height={22} />;

export const SearchIcon = icon('search');
export const MenuIcon = icon('menu');
export const PersonIcon = icon('person');
