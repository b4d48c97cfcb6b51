// Probes of the worker network gate and the worker CSP, one per way around them (issue 29 item 1),
// for e2e/gate.spec.ts and for the hostile bench (`probeGate*`, each `{ name, held, figure }`).
// `startGateProbeServers()` starts the app origin (serving a probe worker with the CSP Sift's
// workers get, built by workers/shared/worker-policy.ts exactly as the service worker and `vite
// preview` build it), an allowed origin, and an origin nobody allowed that counts every request
// it receives over TCP and every UDP datagram on the same port. A probe held when that count did
// not move and the worker got no body from it.
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { policyForRequest, policyScriptUrl, unpolicedUrl } from '../workers/shared/worker-policy';

export interface GateProbeServers {
  /** Where the probe page and worker are served. */
  app: string;
  /** An origin the probe worker's policy and gate allow (it redirects to `other` on /redirect). */
  allowed: string;
  /** The origin nobody allowed. */
  other: string;
  /** Requests and datagrams `other` received so far. */
  arrived(): string[];
  close(): Promise<void>;
}

export interface GateProbeResult {
  name: string;
  held: boolean;
  /** What the worker saw and what reached the other origin. */
  figure: string;
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * GATE_PROBE_BARE=1 serves the probe worker without its CSP, without the gate and without the
 * redirect walk: every worker probe must then fail (how the tests were shown able to fail).
 */
const BARE = !!process.env.GATE_PROBE_BARE;
/** GATE_PROBE_NO_GATE=1 keeps the CSP and the redirect walk but drops the gate: the CSP alone. */
const NO_GATE = BARE || !!process.env.GATE_PROBE_NO_GATE;

export async function startGateProbeServers(): Promise<GateProbeServers> {
  const bundle = await build({
    entryPoints: ['e2e/fixtures/gate-probe.worker.ts'],
    bundle: true,
    format: 'esm',
    write: false,
    define: { __GATE_PROBE_BARE__: String(BARE) },
    plugins: NO_GATE
      ? [
          {
            name: 'no-gate',
            setup(b) {
              b.onResolve({ filter: /install-net-gate$/ }, () => ({
                path: 'bare',
                namespace: 'bare',
              }));
              b.onLoad({ filter: /.*/, namespace: 'bare' }, () => ({
                contents: 'export const netGate = undefined;',
              }));
            },
          },
        ]
      : [],
  });
  const probe = bundle.outputFiles[0]!.text;
  const arrived: string[] = [];

  const other = createServer((req, res) => {
    arrived.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/javascript' });
    res.end('export const reached = true; // other origin body');
  });
  other.on('upgrade', (req, socket) => {
    arrived.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  const otherPort = await listen(other);
  const udp: Socket = createSocket('udp4');
  udp.on('message', (msg) => arrived.push(`UDP ${msg.length} bytes`));
  await new Promise<void>((r) => udp.bind(otherPort, '127.0.0.1', () => r()));
  const otherOrigin = `http://127.0.0.1:${otherPort}`;

  const allowed = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, {
        Location: `${otherOrigin}/redirected`,
        'Access-Control-Allow-Origin': '*',
      });
      res.end();
    } else {
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
      res.end('allowed');
    }
  });
  const allowedOrigin = `http://127.0.0.1:${await listen(allowed)}`;

  const app = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const real = unpolicedUrl(url.href);
    if (new URL(real ?? url.href).pathname === '/probe.worker.js') {
      const dest = req.headers['sec-fetch-dest'];
      const csp = policyForRequest(
        `http://127.0.0.1${req.url}`,
        typeof dest === 'string' ? dest : '',
      );
      res.writeHead(200, {
        'Content-Type': 'text/javascript',
        ...(csp && !BARE ? { 'Content-Security-Policy': csp } : {}),
      });
      res.end(probe);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>gate probe</title>');
    }
  });
  const appOrigin = `http://127.0.0.1:${await listen(app)}`;

  return {
    app: appOrigin,
    allowed: allowedOrigin,
    other: otherOrigin,
    arrived: () => [...arrived],
    close: async () => {
      udp.close();
      await Promise.all(
        [app, other, allowed].map((s) => new Promise((r) => s.close(() => r(undefined)))),
      );
    },
  };
}

/** Runs one probe in a fresh probe worker (a web worker's policy allowing `allowed`). */
async function runInWorker(
  page: Page,
  servers: GateProbeServers,
  kind: string,
  url: string,
): Promise<string> {
  if (!page.url().startsWith(servers.app)) await page.goto(`${servers.app}/`);
  const script = policyScriptUrl('/probe.worker.js', 'web', [servers.allowed], servers.app);
  return page.evaluate(
    ({ script, kind, url, allow }) =>
      new Promise<string>((resolve) => {
        const worker = new Worker(script, { type: 'module' });
        const timer = setTimeout(() => resolve('no answer'), 8000);
        worker.onmessage = (e: MessageEvent<string>) => {
          clearTimeout(timer);
          worker.terminate();
          resolve(e.data);
        };
        worker.onerror = (e) => {
          clearTimeout(timer);
          resolve(`worker error: ${e.message}`);
        };
        worker.postMessage({ kind, url, allow });
      }),
    { script, kind, url, allow: [servers.allowed] },
  );
}

/** One worker probe: held when nothing new reached the other origin (after a short settle). */
async function probe(
  name: string,
  page: Page,
  servers: GateProbeServers,
  kind: string,
  url: string,
): Promise<GateProbeResult> {
  const before = servers.arrived().length;
  const outcome = await runInWorker(page, servers, kind, url);
  await new Promise((r) => setTimeout(r, 500));
  const reached = servers.arrived().slice(before);
  return {
    name,
    held: reached.length === 0,
    figure: `worker: ${outcome}; other origin received ${reached.length}${reached.length ? ` (${reached.slice(0, 3).join(', ')})` : ''}`,
  };
}

const path = (s: GateProbeServers, p: string) => `${s.other}${p}`;

export const probeGateProtoFetch = (page: Page, s: GateProbeServers) =>
  probe('gate: WorkerGlobalScope.prototype.fetch', page, s, 'protoFetch', path(s, '/proto-fetch'));
export const probeGateWebSocketProto = (page: Page, s: GateProbeServers) =>
  probe(
    'gate: WebSocket via prototype chain',
    page,
    s,
    'websocketProto',
    `${s.other.replace('http', 'ws')}/ws`,
  );
export const probeGateEventSourceProto = (page: Page, s: GateProbeServers) =>
  probe('gate: EventSource via prototype chain', page, s, 'eventsourceProto', path(s, '/sse'));
export const probeGateFontFace = (page: Page, s: GateProbeServers) =>
  probe('gate: FontFace load', page, s, 'fontface', path(s, '/font.woff2'));
export const probeGateWebTransport = (page: Page, s: GateProbeServers) =>
  probe(
    'gate: WebTransport (QUIC/UDP)',
    page,
    s,
    'webtransport',
    `${s.other.replace('http', 'https')}/wt`,
  );
export const probeGateDynamicImport = (page: Page, s: GateProbeServers) =>
  probe('gate: dynamic import()', page, s, 'dynamicImport', path(s, '/module.js'));
export const probeGateBlobWorker = (page: Page, s: GateProbeServers) =>
  probe('gate: nested blob: worker', page, s, 'blobWorker', path(s, '/from-blob-worker'));
export const probeGateDataWorker = (page: Page, s: GateProbeServers) =>
  probe('gate: nested data: worker', page, s, 'dataWorker', path(s, '/from-data-worker'));
export const probeGateRedirect = (page: Page, s: GateProbeServers) =>
  probe(
    'gate: web import redirected to another host',
    page,
    s,
    'redirect',
    `${s.allowed}/redirect`,
  );

/**
 * WebRTC from the page: a peer connection with a STUN server on 127.0.0.1 (a UDP socket counting
 * datagrams). `page` must show the built app (Sift removes RTCPeerConnection at start).
 */
export async function probeGateWebRtc(page: Page): Promise<GateProbeResult> {
  const udp = createSocket('udp4');
  let datagrams = 0;
  udp.on('message', () => datagrams++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  const port = udp.address().port;
  const outcome = await page.evaluate(async (port) => {
    const w = window as unknown as Record<string, unknown>;
    const Pc = (w.RTCPeerConnection ?? w.webkitRTCPeerConnection) as
      | (new (c: unknown) => {
          createDataChannel(n: string): unknown;
          createOffer(): Promise<unknown>;
          setLocalDescription(d: unknown): Promise<void>;
          close(): void;
        })
      | undefined;
    if (!Pc) return 'no RTCPeerConnection';
    try {
      const pc = new Pc({ iceServers: [{ urls: `stun:127.0.0.1:${port}` }] });
      pc.createDataChannel('probe');
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((r) => setTimeout(r, 2000));
      pc.close();
      return 'gathered';
    } catch (err) {
      return (err as Error).name;
    }
  }, port);
  udp.close();
  return {
    name: 'page: RTCPeerConnection with a STUN server',
    held: datagrams === 0,
    figure: `page: ${outcome}; STUN server received ${datagrams} datagrams`,
  };
}

/**
 * Every worker probe above, in order, on `page` (for the hostile bench). WebRTC needs the built
 * app's page: call `probeGateWebRtc` on it separately.
 */
export async function probeGateAllWorkerVectors(
  page: Page,
  servers: GateProbeServers,
): Promise<GateProbeResult[]> {
  const results: GateProbeResult[] = [];
  for (const run of [
    probeGateProtoFetch,
    probeGateWebSocketProto,
    probeGateEventSourceProto,
    probeGateFontFace,
    probeGateWebTransport,
    probeGateDynamicImport,
    probeGateBlobWorker,
    probeGateDataWorker,
    probeGateRedirect,
  ])
    results.push(await run(page, servers));
  return results;
}

/**
 * The same vectors as tests of e2e/gate.spec.ts (spec file and a title fragment), for a runner
 * that runs specs by name (the hostile bench's `runSpec(spec, grep, timeoutMs)`).
 */
export const GATE_PROBE_TESTS: ReadonlyArray<{ name: string; spec: string; grep: string }> = [
  { name: 'gate-prototype-fetch', spec: 'gate.spec.ts', grep: 'WorkerGlobalScope.prototype' },
  { name: 'gate-websocket-prototype', spec: 'gate.spec.ts', grep: 'original WebSocket' },
  { name: 'gate-eventsource-prototype', spec: 'gate.spec.ts', grep: 'original EventSource' },
  { name: 'gate-fontface', spec: 'gate.spec.ts', grep: 'FontFace' },
  { name: 'gate-webtransport', spec: 'gate.spec.ts', grep: 'WebTransport' },
  { name: 'gate-dynamic-import', spec: 'gate.spec.ts', grep: 'dynamic import' },
  { name: 'gate-nested-blob-worker', spec: 'gate.spec.ts', grep: 'nested blob' },
  { name: 'gate-nested-data-worker', spec: 'gate.spec.ts', grep: 'nested data' },
  { name: 'gate-redirect-other-host', spec: 'gate.spec.ts', grep: 'redirected to another host' },
  { name: 'gate-page-webrtc', spec: 'gate.spec.ts', grep: 'RTCPeerConnection' },
  { name: 'gate-worker-csp-served', spec: 'gate.spec.ts', grep: 'served with their CSP' },
];
