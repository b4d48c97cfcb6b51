// Thin entry of the page view's pdf.js worker: the network gate first (this worker may reach its
// own origin only, and pdf.js is given nothing to fetch), then pdf.js's worker code, which
// starts serving this scope's messages as it loads.
import './install-net-gate';
import 'pdfjs-dist/build/pdf.worker.mjs';
