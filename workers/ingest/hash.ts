// Content hashing for dedupe: SHA-256 via WebCrypto, available in Node 20 and in workers.
// Owns: the hash format (lower-case hex).

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `text`. Hash normalised text (`normaliseText`)
 * so that cosmetic differences do not defeat dedupe.
 * @throws Error if WebCrypto is unavailable (non-secure context); Sift is served from 127.0.0.1
 * or https, where it always is.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let out = '';
  for (const byte of new Uint8Array(digest)) out += HEX[byte];
  return out;
}
