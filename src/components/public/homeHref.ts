import { useRouter } from 'wouter';
import { routes } from '../../app/routes';

/**
 * The link to the home page in the page's language: /es, not /es/ (its canonical URL, which the
 * server's 301 would otherwise be asked for), named whole ('~'), outside the router's base.
 */
export function useHomeHref(): string {
  const { base } = useRouter();
  return base ? `~${base}` : routes.home;
}
