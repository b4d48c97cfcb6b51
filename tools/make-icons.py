"""Generates Sift's app icons (PNG) without dependencies: a lens over a sieve on a slate tile.
Run: python3 tools/make-icons.py  (writes public/icons/*.png; the outputs are committed)."""
import math, struct, zlib, pathlib

BG = (47, 72, 88)
FG = (247, 247, 245)
ACCENT = (242, 166, 90)

def render(size, maskable=False):
    rows = []
    pad = 0 if maskable else size * 0.06
    radius = size * (0 if maskable else 0.2)
    cx, cy, r = size * 0.44, size * 0.42, size * 0.2
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            px, py = x + 0.5, y + 0.5
            # rounded-square tile
            qx = max(abs(px - size / 2) - (size / 2 - pad - radius), 0)
            qy = max(abs(py - size / 2) - (size / 2 - pad - radius), 0)
            inside = math.hypot(qx, qy) <= radius if radius else (pad <= px <= size - pad and pad <= py <= size - pad)
            color, alpha = BG, 255 if inside else 0
            if inside:
                d = math.hypot(px - cx, py - cy)
                ring = abs(d - r) <= size * 0.035
                # handle from the lens towards the bottom right
                hx, hy = px - (cx + r * 0.7), py - (cy + r * 0.7)
                t = (hx + hy) / 2
                along = 0 <= t <= size * 0.2
                across = abs(hx - hy) / math.sqrt(2) <= size * 0.04
                lines = d < r - size * 0.05 and (int((py - cy + r) / (size * 0.06)) % 2 == 0)
                if ring or (along and across):
                    color = FG
                elif lines:
                    color = ACCENT
            row += bytes(color) + bytes([alpha])
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")

out = pathlib.Path(__file__).resolve().parent.parent / "public" / "icons"
out.mkdir(parents=True, exist_ok=True)
(out / "icon-192.png").write_bytes(render(192))
(out / "icon-512.png").write_bytes(render(512))
(out / "icon-512-maskable.png").write_bytes(render(512, maskable=True))
