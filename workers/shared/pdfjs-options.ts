// The pdf.js options every Sift use of pdf.js shares (the importer's text extraction and the page
// view): no eval (CSP forbids it), no @font-face, no system fonts, nothing fetched by pdf.js.

export const PDFJS_SAFE_OPTIONS = {
  isEvalSupported: false, // no `new Function` for PostScript functions
  disableFontFace: true, // glyphs are drawn as paths from the file's own fonts; text needs none
  useSystemFonts: false,
  disableAutoFetch: true,
  disableStream: true,
  disableRange: true,
  enableXfa: false,
  useWorkerFetch: false,
  isOffscreenCanvasSupported: false,
  verbosity: 0, // errors only: warnings about fonts are noise
} as const;
