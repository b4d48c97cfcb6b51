// The redirect walker against real servers on 127.0.0.1 (Node's fetch reads a manual redirect's
// Location, as a browser does not): a hop to another host is refused before it is requested and
// every hop is reported; same-host hops are followed, POST turns GET on 303; too many hops, a
// missing Location and a browser's opaque redirect are refused with REDIRECT_REFUSED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sameOriginHop, walkRedirects, type RedirectHop } from './redirect-walk';

let a: Server;
let b: Server;
let A = '';
let B = '';
const reachedB: string[] = [];
const methodsA: string[] = [];

async function listen(s: Server) {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  b = createServer((req, res) => {
    reachedB.push(req.url ?? '');
    res.end('other host body');
  });
  B = await listen(b);
  a = createServer((req, res) => {
    methodsA.push(`${req.method} ${req.url}`);
    const to = (status: number, location: string) => res.writeHead(status, { location }).end();
    if (req.url === '/elsewhere') return to(302, `${B}/stolen`);
    if (req.url === '/moved') return to(301, '/final');
    if (req.url === '/post') return to(303, '/final');
    if (req.url === '/loop') return to(302, '/loop');
    if (req.url === '/nowhere') return res.writeHead(302).end();
    res.end(`final ${req.method}`);
  });
  A = await listen(a);
});
afterAll(async () => {
  await Promise.all([a, b].map((s) => new Promise((r) => s.close(r))));
});

function walk(path: string, init: RequestInit = {}) {
  const hops: RedirectHop[] = [];
  const run = walkRedirects((u, i) => fetch(u, i), new URL(path, A), init, {
    checkHop: sameOriginHop,
    onHop: (h) => hops.push(h),
    maxHops: 5,
  });
  return { run, hops };
}

describe('walkRedirects', () => {
  it('refuses a hop to another host before asking it, and reports the hop', async () => {
    const { run, hops } = walk('/elsewhere');
    await expect(run).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
    await expect(walk('/elsewhere').run).rejects.toThrow(/another host/);
    expect(reachedB).toEqual([]);
    expect(hops.map((h) => [h.url.href, h.status, h.location?.href])).toEqual([
      [`${A}/elsewhere`, 302, `${B}/stolen`],
    ]);
  });

  it('follows hops on the same host, and a 303 after a POST as a GET', async () => {
    const moved = walk('/moved');
    const { response, url } = await moved.run;
    expect(await response.text()).toBe('final GET');
    expect(url.href).toBe(`${A}/final`);
    expect(moved.hops.map((h) => h.status)).toEqual([301]);
    const posted = await walk('/post', { method: 'POST', body: 'x' }).run;
    expect(await posted.response.text()).toBe('final GET');
  });

  it('refuses a redirect loop, a redirect without Location and an opaque redirect', async () => {
    await expect(walk('/loop').run).rejects.toThrow(/more than 5/);
    await expect(walk('/nowhere').run).rejects.toThrow(/without a usable Location/);
    const opaque = Object.assign(new Response(null, { status: 200 }), {});
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    const hops: RedirectHop[] = [];
    await expect(
      walkRedirects(
        async () => opaque,
        new URL(`${A}/x`),
        {},
        {
          checkHop: sameOriginHop,
          onHop: (h) => hops.push(h),
        },
      ),
    ).rejects.toThrow(/browser hides/);
    expect(hops).toHaveLength(1);
  });
});
