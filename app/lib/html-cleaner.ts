// The UI thread's HTML cleaner, handed to the database worker as a Comlink proxy (workers have
// no DOM). Owns nothing but the binding of the cleaner to this window.
import type { CleanHtml } from '../../workers/shared/ingest-api';

export const browserHtmlCleaner: CleanHtml = async (html, url) => {
  const { createHtmlCleaner } = await import('../import/clean-html');
  return createHtmlCleaner(window)(html, url);
};
