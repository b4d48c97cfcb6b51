// The first import of every worker entry: puts the network gate (workers/shared/net-gate.ts) in
// front of this worker's request APIs before any other module is evaluated, so no module can keep
// a reference to the ungated fetch. The entry then adds its built-in origins and the user's
// choices to `netGate`. Only *.worker.ts files import this module.
import { createNetGate, installNetGate, type NetScope } from './shared/net-gate';

export const netGate = createNetGate({
  fetch: self.fetch.bind(self),
  self: self.location.href,
  builtIn: [],
});
installNetGate(self as unknown as NetScope, netGate);
