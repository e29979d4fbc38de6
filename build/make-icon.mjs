// Draws build/icon.png (512x512): a blue rounded square with a white "T". electron-builder turns
// it into the Windows .ico and macOS .icns; the window uses it on Linux. No image library needed:
// shapes are sampled 4x4 per pixel for smooth edges, and the PNG is written by hand.
// Run: node build/make-icon.mjs
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const SIZE = 512
const SAMPLES = 4

/** Signed distance to a rounded rectangle (negative inside). */
function roundedRect(x, y, left, top, right, bottom, radius) {
  const dx = Math.max(left + radius - x, x - (right - radius), 0)
  const dy = Math.max(top + radius - y, y - (bottom - radius), 0)
  const outside = Math.hypot(dx, dy) - radius
  const inside = Math.max(left - x, x - right, top - y, y - bottom)
  return dx > 0 || dy > 0 ? outside : inside
}

const inTile = (x, y) => roundedRect(x, y, 24, 24, 488, 488, 104) <= 0
const inLetter = (x, y) =>
  roundedRect(x, y, 128, 132, 384, 196, 20) <= 0 || roundedRect(x, y, 224, 132, 288, 392, 20) <= 0

/** Indigo at the top to blue at the bottom. */
function tileColor(y) {
  const t = y / SIZE
  return [76 + (34 - 76) * t, 110 + (139 - 110) * t, 245 + (230 - 245) * t]
}

const rows = []
for (let py = 0; py < SIZE; py++) {
  const row = Buffer.alloc(1 + SIZE * 4) // filter byte 0, then RGBA
  for (let px = 0; px < SIZE; px++) {
    let tile = 0
    let letter = 0
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const x = px + (sx + 0.5) / SAMPLES
        const y = py + (sy + 0.5) / SAMPLES
        if (inTile(x, y)) {
          tile++
          if (inLetter(x, y)) letter++
        }
      }
    }
    const coverage = tile / SAMPLES ** 2
    const white = tile ? letter / tile : 0
    const base = tileColor(py)
    const rgb = base.map((channel) => Math.round(channel + (255 - channel) * white))
    row.set([...rgb, Math.round(coverage * 255)], 1 + px * 4)
  }
  rows.push(row)
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes) {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const header = Buffer.alloc(13)
header.writeUInt32BE(SIZE, 0)
header.writeUInt32BE(SIZE, 4)
header.set([8, 6, 0, 0, 0], 8) // 8-bit RGBA, no interlace

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
])
writeFileSync(new URL('./icon.png', import.meta.url), png)
