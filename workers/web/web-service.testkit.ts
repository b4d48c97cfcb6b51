// The web service as the Node tests build it: a fixed random source (retries without jitter),
// online, not a browser (no CORS detection); each test gives its fetch and clock and overrides
// what it is about. Test support only.
import { createWebService, type WebService, type WebServiceDeps } from './web-service';

export function createTestWebService(
  deps: Pick<WebServiceDeps, 'fetch' | 'clock'> & Partial<WebServiceDeps>,
): WebService {
  return createWebService({ random: () => 0.5, isOnline: () => true, isBrowser: false, ...deps });
}
