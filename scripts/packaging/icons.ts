import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// What `npm run package:check` asks of the icons electron-builder packs (electron-builder.yml),
// which build/make-icon.mjs draws. Each file is parsed, not just found: electron-builder passes
// them on unread (it only reads the ICO's directory for its largest size), so a broken one would
// surface on a user's machine as a blank or default icon.

export type IconOs = 'windows' | 'macos' | 'linux'

export interface IconFileReport {
  /** The icon file: the build folder joined with its name. */
  file: string
  /** The side, in pixels, of each image found valid in it, smallest first. */
  sizes: number[]
  /** What is wrong, each starting with the file; empty when the icon is fine. */
  problems: string[]
}

export type IconReport = Record<IconOs, IconFileReport>

export interface PngSize {
  width: number
  height: number
}

/** Each platform's icon, checked. */
export function checkIcons(buildDir: string): IconReport {
  return {
    windows: checkIco(join(buildDir, 'icon.ico')),
    macos: checkIcns(join(buildDir, 'icon.icns')),
    linux: checkPngIcon(join(buildDir, 'icon.png')),
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The size in a PNG's header (IHDR), or null when `data` does not start as a PNG does. */
export function pngSize(data: Buffer): PngSize | null {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return null
  if (data.readUInt32BE(8) !== 13 || data.toString('latin1', 12, 16) !== 'IHDR') return null
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

/**
 * A whole PNG's size, or what is wrong with it. Its chunks are walked to IEND, which must end
 * `data`: a cut-off image still has a valid header, and an ICO or ICNS entry's length is the PNG's.
 */
function readPng(data: Buffer): PngSize | string {
  const size = pngSize(data)
  if (!size) return 'is not a PNG (no PNG signature and IHDR header)'
  if (size.width === 0 || size.height === 0) return `is a PNG of ${size.width}x${size.height}`
  let hasImageData = false
  for (let offset = 8; offset + 12 <= data.length;) {
    const type = data.toString('latin1', offset + 4, offset + 8)
    const end = offset + 12 + data.readUInt32BE(offset) // length, type, data, CRC
    if (end > data.length) return `is a PNG cut off in its ${type} chunk`
    if (type === 'IDAT') hasImageData = true
    if (type === 'IEND') {
      if (!hasImageData) return 'is a PNG without image data (IDAT)'
      if (end < data.length) return `has ${data.length - end} bytes after the PNG's end (IEND)`
      return size
    }
    offset = end
  }
  return 'is a PNG cut off before its end (IEND)'
}

/** The file's bytes, or null after noting why there are none. */
function read(report: IconFileReport): Buffer | null {
  try {
    return readFileSync(report.file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    report.problems.push(
      `${report.file}: ${code === 'ENOENT' ? 'is missing' : `cannot be read (${code})`}`,
    )
    return null
  }
}

function newReport(file: string): IconFileReport {
  return { file, sizes: [], problems: [] }
}

function sorted(report: IconFileReport): IconFileReport {
  return { ...report, sizes: [...new Set(report.sizes)].sort((a, b) => a - b) }
}

/** Linux: a square PNG of at least 512 px, which desktops scale down for every place they show. */
function checkPngIcon(file: string): IconFileReport {
  const report = newReport(file)
  const data = read(report)
  if (!data) return report
  const png = readPng(data)
  if (typeof png === 'string') report.problems.push(`${file}: ${png}`)
  else if (png.width !== png.height)
    report.problems.push(`${file}: is not square (${png.width}x${png.height})`)
  else if (png.width < 512)
    report.problems.push(`${file}: is ${png.width}x${png.height}; at least 512x512 is needed`)
  else report.sizes.push(png.width)
  return report
}

/**
 * Windows: an ICO of PNG images. ICONDIR (reserved 0, type 1, count), then a 16-byte entry per
 * image (width and height, 0 meaning 256; ...; length and offset of its data), little-endian.
 * electron-builder refuses one without a 256 px image, the largest Windows shows.
 */
function checkIco(file: string): IconFileReport {
  const report = newReport(file)
  const problem = (what: string) => report.problems.push(`${file}: ${what}`)
  const data = read(report)
  if (!data) return report
  if (data.length < 6 || data.readUInt16LE(0) !== 0 || data.readUInt16LE(2) !== 1) {
    problem('is not an ICO (it does not start with 0, 0, 1, 0)')
    return report
  }
  const count = data.readUInt16LE(4)
  const directoryEnd = 6 + 16 * count
  if (count === 0) problem('holds no images')
  if (directoryEnd > data.length) {
    problem(`is cut off in its directory of ${count} images (${data.length} bytes)`)
    return report
  }
  for (let index = 0; index < count; index++) {
    const entry = 6 + 16 * index
    const width = data[entry] || 256
    const height = data[entry + 1] || 256
    const length = data.readUInt32LE(entry + 8)
    const offset = data.readUInt32LE(entry + 12)
    const image = `image ${index + 1} of ${count} (${width}x${height})`
    if (offset < directoryEnd) problem(`${image} starts at byte ${offset}, inside the directory`)
    else if (offset + length > data.length)
      problem(`${image} runs to byte ${offset + length}, past the end of the file (${data.length})`)
    else {
      const png = readPng(data.subarray(offset, offset + length))
      if (typeof png === 'string') problem(`${image} ${png}`)
      else if (png.width !== width || png.height !== height)
        problem(`${image} holds a PNG of ${png.width}x${png.height}`)
      else if (width !== height) problem(`${image} is not square`)
      else report.sizes.push(width)
    }
  }
  if (!report.sizes.includes(256)) problem('has no valid 256x256 image')
  return sorted(report)
}

/** The ICNS types that hold a PNG here, and its side (ic11 to ic14 are the @2x ones). */
const ICNS_PNG_SIZES: Readonly<Record<string, number>> = {
  icp4: 16,
  icp5: 32,
  icp6: 64,
  ic07: 128,
  ic08: 256,
  ic09: 512,
  ic10: 1024,
  ic11: 32,
  ic12: 64,
  ic13: 256,
  ic14: 512,
}

/**
 * macOS: an ICNS. 'icns' and the file's length, then entries of a 4-character type and a length
 * counting their 8-byte header, big-endian, end to end to the last byte. Other types (a table of
 * contents, older bitmaps) are walked over; those above must hold a PNG of their size. The Dock
 * and Finder want 512 px or more.
 */
function checkIcns(file: string): IconFileReport {
  const report = newReport(file)
  const problem = (what: string) => report.problems.push(`${file}: ${what}`)
  const data = read(report)
  if (!data) return report
  if (data.length < 8 || data.toString('latin1', 0, 4) !== 'icns') {
    problem("is not an ICNS (it does not start with 'icns')")
    return report
  }
  const declared = data.readUInt32BE(4)
  if (declared !== data.length) problem(`says it is ${declared} bytes long, but has ${data.length}`)
  const types = new Set<string>()
  for (let offset = 8; offset < data.length;) {
    if (offset + 8 > data.length) {
      problem(`ends with ${data.length - offset} bytes too few for an entry's header`)
      break
    }
    const type = data.toString('latin1', offset, offset + 4)
    const length = data.readUInt32BE(offset + 4)
    const entry = `entry '${type}' at byte ${offset}`
    if (length < 8) {
      problem(`${entry} says it is ${length} bytes long, less than its header`)
      break
    }
    if (offset + length > data.length) {
      problem(`${entry} runs to byte ${offset + length}, past the end of the file (${data.length})`)
      break
    }
    const side = ICNS_PNG_SIZES[type]
    if (side !== undefined) {
      const png = readPng(data.subarray(offset + 8, offset + length))
      if (typeof png === 'string') problem(`${entry} ${png}`)
      else if (png.width !== side || png.height !== side)
        problem(`${entry} holds a PNG of ${png.width}x${png.height}, not ${side}x${side}`)
      else {
        report.sizes.push(side)
        types.add(type)
      }
    }
    offset += length
  }
  if (!types.has('ic09') && !types.has('ic10'))
    problem("has no valid 512 or 1024 px image ('ic09' or 'ic10')")
  return sorted(report)
}
