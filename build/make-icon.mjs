// Draws the app's icons, a blue rounded square with a white "T", from one drawing at every size
// each platform asks for. electron-builder takes an .ico and an .icns as they are, so nothing is
// converted at packaging time:
// - icon.png, 1024 px: the Linux packages' icon and the window's (src/main/index.ts); 1024 because
//   desktops scale it down and macOS wants that much on Retina screens.
// - icon.ico, for Windows (the .exe, the installer, shortcuts): PNG-compressed entries, which
//   Windows reads since Vista, from 16 to 256 px, the largest an ICO holds and the smallest
//   electron-builder accepts as the largest.
// - icon.icns, for macOS (Finder, the Dock): PNG entries from 16 to 1024 px.
// Each size is drawn on its own, its shapes sampled many times inside every pixel: what scaling a
// huge image down with a box filter would give, with no image library. The PNG, ICO and ICNS
// bytes are written by hand. `npm run package:check` parses all three (scripts/packaging/icons.ts).
// Run: node build/make-icon.mjs
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

/** The drawing's coordinates run from 0 to 512 across the icon, whatever its size in pixels. */
const UNITS = 512

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

/** Indigo at the top (t = 0) to blue at the bottom (t = 1). */
function tileColor(t) {
  return [76 + (34 - 76) * t, 110 + (139 - 110) * t, 245 + (230 - 245) * t]
}

/** The icon at `size` px: PNG scanlines, each filter byte 0 (none) then RGBA (straight alpha). */
function draw(size) {
  // n×n samples a pixel: 16×16 at 16 px, where a pixel spans 32 units and 4×4 would leave visible
  // steps along the edges, down to 4×4 from 64 px, plenty once pixels are small against the shapes.
  const samples = Math.max(4, Math.ceil(256 / size))
  const scale = UNITS / size
  const rows = []
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4)
    const base = tileColor((py + 0.5) / size)
    for (let px = 0; px < size; px++) {
      let tile = 0
      let letter = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) * scale
          const y = (py + (sy + 0.5) / samples) * scale
          if (inTile(x, y)) {
            tile++
            if (inLetter(x, y)) letter++
          }
        }
      }
      const coverage = tile / samples ** 2
      const white = tile ? letter / tile : 0
      // Transparent pixels keep the tile's colour too, so whatever scales the image without
      // premultiplying alpha blends the edge towards blue, not towards a dark fringe.
      const rgb = base.map((channel) => Math.round(channel + (255 - channel) * white))
      row.set([...rgb, Math.round(coverage * 255)], 1 + px * 4)
    }
    rows.push(row)
  }
  return rows
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

function png(size) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(draw(size)), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * An ICO of PNG images: ICONDIR (reserved, type 1 = icon, count), one 16-byte ICONDIRENTRY per
 * image, then the images. Little-endian; a width or height of 256 is written as 0.
 */
function ico(images) {
  const directory = Buffer.alloc(6 + 16 * images.length)
  directory.writeUInt16LE(0, 0)
  directory.writeUInt16LE(1, 2)
  directory.writeUInt16LE(images.length, 4)
  let offset = directory.length
  images.forEach(({ size, data }, index) => {
    const entry = 6 + 16 * index
    directory[entry] = size % 256 // width
    directory[entry + 1] = size % 256 // height
    // Bytes 2 and 3, palette size and reserved, stay 0.
    directory.writeUInt16LE(1, entry + 4) // colour planes
    directory.writeUInt16LE(32, entry + 6) // bits per pixel
    directory.writeUInt32LE(data.length, entry + 8)
    directory.writeUInt32LE(offset, entry + 12)
    offset += data.length
  })
  return Buffer.concat([directory, ...images.map(({ data }) => data)])
}

/**
 * An ICNS: 'icns' and the file's length, then per image its type, its length counting this 8-byte
 * header, and the PNG. Big-endian.
 */
function icns(images) {
  const entries = images.map(({ type, data }) => {
    const header = Buffer.alloc(8)
    header.write(type, 0, 'ascii')
    header.writeUInt32BE(8 + data.length, 4)
    return Buffer.concat([header, data])
  })
  const header = Buffer.alloc(8)
  header.write('icns', 0, 'ascii')
  header.writeUInt32BE(8 + entries.reduce((total, entry) => total + entry.length, 0), 4)
  return Buffer.concat([header, ...entries])
}

const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
/** The ICNS types holding PNG data, by size (ic10 is 512 px at 2x, i.e. 1024 px). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
]

const pngs = new Map()
const pngOf = (size) => {
  if (!pngs.has(size)) pngs.set(size, png(size))
  return pngs.get(size)
}

const write = (name, data) => writeFileSync(new URL(`./${name}`, import.meta.url), data)
write('icon.png', pngOf(1024))
write('icon.ico', ico(ICO_SIZES.map((size) => ({ size, data: pngOf(size) }))))
write('icon.icns', icns(ICNS_TYPES.map(([type, size]) => ({ type, data: pngOf(size) }))))
