/** The page as the bundler builds it (scripts/bundle.mjs, from src/web/page/): its HTML, script and style. */
export interface PageAssets {
  /** Holds `{{csrf}}` where the server puts the page's CSRF token. */
  html: string;
  js: string;
  css: string;
  /** The tab's icon, SVG. */
  icon: string;
}

/** Set by the bundler; the module tree `tsc` emits has no page. */
declare const RALPH_PAGE_ASSETS: PageAssets | undefined;

/** The page bundled into this build of ralph, or null when running from the sources. */
export function bundledPageAssets(): PageAssets | null {
  return typeof RALPH_PAGE_ASSETS === 'undefined' ? null : RALPH_PAGE_ASSETS;
}
