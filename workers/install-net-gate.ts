// The first import of every worker entry: puts the network gate (workers/shared/net-gate.ts) in
// front of this worker's request APIs before any other module is evaluated, so no module can keep
// a reference to the ungated fetch. The entry then adds its built-in origins and the user's
// choices to `netGate`. Only *.worker.ts files import this module. The worker's CSP (served with
// its script, workers/shared/worker-policy.ts) holds what no patch can reach.
import { createNetGate, installNetGate, type NetScope } from './shared/net-gate';
import { policyKindOf } from './shared/worker-policy';

export const netGate = createNetGate({
  fetch: self.fetch.bind(self),
  self: self.location.href,
  builtIn: [],
});
// Only the LLM worker starts a nested worker (wllama's, from a blob: URL).
const isLlm =
  policyKindOf(self.location.href) === 'llm' || (self as { name?: string }).name === 'sift-llm';
installNetGate(self as unknown as NetScope, netGate, { nestedWorkers: isLlm ? 'blob' : 'none' });
