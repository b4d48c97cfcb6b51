// No way around the network: each way a worker (or the page) could open a connection that the
// issue-29 probes found open, tried against an origin nobody allowed (127.0.0.1, another port,
// counting every request and UDP datagram). The probe worker runs under Sift's worker gate and
// worker CSP (e2e/gate-probes.ts); WebRTC is tried on the built app's page. Each test asserts the
// request never arrived. The app's own worker scripts are checked to be served with their CSP,
// by `vite preview` on the first visit and by the service worker once it controls the page.
import { test, expect } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config';
import { workerCsp } from '../workers/shared/worker-policy';
import {
  probeGateBlobWorker,
  probeGateDataWorker,
  probeGateDynamicImport,
  probeGateEventSourceProto,
  probeGateFontFace,
  probeGateProtoFetch,
  probeGateRedirect,
  probeGateWebRtc,
  probeGateWebSocketProto,
  probeGateWebTransport,
  startGateProbeServers,
  type GateProbeResult,
  type GateProbeServers,
} from './gate-probes';

// QUIC on, so a WebTransport that got past the policy would really send UDP.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS.filter((a) => a !== '--disable-quic'),
  },
});

let servers: GateProbeServers;
test.beforeAll(async () => {
  servers = await startGateProbeServers();
});
test.afterAll(() => servers.close());

function held(result: GateProbeResult) {
  console.log(`${result.name}: ${result.figure}`);
  // The probe ran and was refused (a worker that failed to start would prove nothing).
  expect(result.figure).not.toMatch(/worker error|no answer|gathered|loaded|imported|body:/);
  expect(result.figure).toMatch(/received 0/);
  expect(result.held, result.figure).toBe(true);
}

test('fetch through WorkerGlobalScope.prototype never arrives', async ({ page }) => {
  held(await probeGateProtoFetch(page, servers));
});

test('the original WebSocket reached through the prototype chain never connects', async ({
  page,
}) => {
  held(await probeGateWebSocketProto(page, servers));
});

test('the original EventSource reached through the prototype chain never connects', async ({
  page,
}) => {
  held(await probeGateEventSourceProto(page, servers));
});

test('a FontFace with a remote url() never loads', async ({ page }) => {
  held(await probeGateFontFace(page, servers));
});

test('a WebTransport session never sends a datagram', async ({ page }) => {
  held(await probeGateWebTransport(page, servers));
});

test('a dynamic import() of a remote module never arrives', async ({ page }) => {
  held(await probeGateDynamicImport(page, servers));
});

test('a nested blob: worker never reaches the other origin', async ({ page }) => {
  held(await probeGateBlobWorker(page, servers));
});

test('a nested data: worker never reaches the other origin', async ({ page }) => {
  held(await probeGateDataWorker(page, servers));
});

test('a web import redirected to another host is refused, the hop ledgered', async ({ page }) => {
  const result = await probeGateRedirect(page, servers);
  held(result);
  expect(result.figure).toMatch(/REDIRECT_REFUSED/);
  expect(result.figure).not.toMatch(/body:/);
});

test('the page has no RTCPeerConnection: a STUN server hears nothing', async ({ page }) => {
  if (process.env.GATE_PROBE_BARE) {
    await page.goto(`${servers.app}/`); // a page without Sift's start-up code
  } else {
    await page.goto('/');
    await expect(page.getByTestId('storage-status')).toBeVisible();
  }
  held(await probeGateWebRtc(page));
});

test("the app's workers are served with their CSP, before and after the service worker controls", async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('storage-status')).toBeVisible();
  const policyOf = () =>
    page.evaluate(async () => {
      const entry = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .find((n) => /\/sift-policy\/db\/[^/]+\/(.*\/)?db\.worker-[^/]*\.js$/.test(n));
      if (!entry) return 'no db worker script';
      const res = await fetch(entry, { cache: 'no-store' });
      return res.headers.get('content-security-policy') ?? 'none';
    });
  expect(await policyOf()).toBe(workerCsp('db'));
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect(page.getByTestId('storage-status')).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await policyOf()).toBe(workerCsp('db'));
});
