// `observeRoutes`: wraps the uWS app so every response, once ended, is reported with its route, method and status.
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws-app.js';

/** Hears one ended response: `route` is the pattern it matched (never the raw URL); `status` 0 if none was sent. */
export type ResponseObserver = (method: string, route: string, status: number, ms: number) => void;

/** Set on a response by the wrapped handler, taken by the response's `Reply`. */
const OBSERVE = Symbol('floe.observe');
type Observed = HttpResponse & { [OBSERVE]?: ((status: number) => void) | undefined };

// uWS names `del` what HTTP names DELETE; `any` learns the method from the request.
const ROUTE_METHODS: Readonly<Record<string, string>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  del: 'DELETE',
  head: 'HEAD',
  options: 'OPTIONS',
  any: '',
};
/** Methods kept as labels; anything else a client sends is counted as OTHER (a bounded label set). */
const KNOWN = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE']);

/**
 * The app as `registerRoutes` sees it: each route method registers a handler that first tags the response with
 * its route pattern, method and start time, for `takeObserver` in `Reply`. Everything else passes through.
 */
export function observeRoutes(app: TemplatedApp, observe: ResponseObserver): TemplatedApp {
  const observed: TemplatedApp = new Proxy(app, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fixed = typeof prop === 'string' && Object.hasOwn(ROUTE_METHODS, prop) ? ROUTE_METHODS[prop] : undefined;
      if (fixed === undefined) return value.bind(target);
      return (pattern: string, handler: (res: HttpResponse, req: HttpRequest) => void) => {
        value.call(target, pattern, (res: Observed, req: HttpRequest) => {
          const start = performance.now();
          const upper = fixed === '' ? req.getCaseSensitiveMethod().toUpperCase() : fixed;
          const method = KNOWN.has(upper) ? upper : 'OTHER';
          res[OBSERVE] = (status) => observe(method, pattern, status, performance.now() - start);
          handler(res, req);
        });
        return observed;
      };
    },
  });
  return observed;
}

/** The observer the route handler tagged `res` with (once: a second `Reply` on the same response gets none). */
export function takeObserver(res: HttpResponse): ((status: number) => void) | undefined {
  const observed = res as Observed;
  const observer = observed[OBSERVE];
  if (observer !== undefined) observed[OBSERVE] = undefined;
  return observer;
}
