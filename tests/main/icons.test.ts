import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkIcons, pngSize, type IconOs } from '../../scripts/packaging/icons'

// The icons committed in build/ (drawn by build/make-icon.mjs) as `npm run package:check` checks
// them, and broken copies of them, each reported against its file.

const buildDir = resolve(__dirname, '../../build')
const ICON_FILES = ['icon.ico', 'icon.icns', 'icon.png']

let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'tandem-icons-test-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A build folder holding the committed icons, but for `name`, given `content` (or left out). */
function buildWith(name: string, content: Buffer | null): string {
  const dir = mkdtempSync(join(folder, 'build-'))
  mkdirSync(dir, { recursive: true })
  for (const file of ICON_FILES)
    if (file !== name) copyFileSync(join(buildDir, file), join(dir, file))
  if (content) writeFileSync(join(dir, name), content)
  return dir
}

const committed = (name: string) => readFileSync(join(buildDir, name))

/** The committed ICO's directory entries: where each image's PNG lies. */
function icoEntries(ico: Buffer) {
  return Array.from({ length: ico.readUInt16LE(4) }, (_, index) => ({
    at: 6 + 16 * index,
    side: ico[6 + 16 * index] || 256,
    length: ico.readUInt32LE(6 + 16 * index + 8),
    offset: ico.readUInt32LE(6 + 16 * index + 12),
  }))
}

/** Where the committed ICNS's entry of `type` starts. */
function icnsEntryAt(icns: Buffer, type: string): number {
  for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
    if (icns.toString('latin1', at, at + 4) === type) return at
  }
  throw new Error(`no '${type}' entry`)
}

/** Only `os` has problems, and they are exactly `problems`. */
function expectProblems(dir: string, os: IconOs, problems: string[]): void {
  const report = checkIcons(dir)
  for (const other of ['windows', 'macos', 'linux'] as const) {
    expect(report[other].problems).toEqual(other === os ? problems : [])
  }
}

describe('the committed icons', () => {
  it('are valid for each platform, at the sizes build/make-icon.mjs draws', () => {
    expect(checkIcons(buildDir)).toEqual({
      windows: {
        file: join(buildDir, 'icon.ico'),
        sizes: [16, 24, 32, 48, 64, 128, 256],
        problems: [],
      },
      macos: {
        file: join(buildDir, 'icon.icns'),
        sizes: [16, 32, 64, 128, 256, 512, 1024],
        problems: [],
      },
      linux: { file: join(buildDir, 'icon.png'), sizes: [1024], problems: [] },
    })
  })

  it('pngSize reads the header of a PNG, and nothing else', () => {
    expect(pngSize(committed('icon.png'))).toEqual({ width: 1024, height: 1024 })
    expect(pngSize(committed('icon.ico'))).toBeNull()
    expect(pngSize(committed('icon.png').subarray(0, 20))).toBeNull()
  })
})

describe('broken icons are reported against their file', () => {
  it('a missing file', () => {
    const dir = buildWith('icon.icns', null)
    expectProblems(dir, 'macos', [`${join(dir, 'icon.icns')}: is missing`])
    expect(checkIcons(dir).macos.sizes).toEqual([])
  })

  it('a truncated ICO: the images past the cut, and so no 256 px one', () => {
    const ico = committed('icon.ico')
    const last = icoEntries(ico).at(-1)!
    const dir = buildWith('icon.ico', ico.subarray(0, last.offset + 100))
    const file = join(dir, 'icon.ico')
    expectProblems(dir, 'windows', [
      `${file}: image 7 of 7 (256x256) runs to byte ${last.offset + last.length}, past the end of the file (${last.offset + 100})`,
      `${file}: has no valid 256x256 image`,
    ])
    expect(checkIcons(dir).windows.sizes).toEqual([16, 24, 32, 48, 64, 128])
  })

  it('an ICO cut off inside its directory', () => {
    const dir = buildWith('icon.ico', committed('icon.ico').subarray(0, 30))
    expectProblems(dir, 'windows', [
      `${join(dir, 'icon.ico')}: is cut off in its directory of 7 images (30 bytes)`,
    ])
  })

  it('an ICO without a 256 px image', () => {
    const ico = Buffer.from(committed('icon.ico'))
    ico.writeUInt16LE(6, 4) // its directory now ends before the 256 px entry
    const dir = buildWith('icon.ico', ico)
    expectProblems(dir, 'windows', [`${join(dir, 'icon.ico')}: has no valid 256x256 image`])
    expect(checkIcons(dir).windows.sizes).toEqual([16, 24, 32, 48, 64, 128])
  })

  it('an ICO entry whose PNG is not the size the entry says', () => {
    const ico = Buffer.from(committed('icon.ico'))
    const entry = icoEntries(ico).find(({ side }) => side === 48)!
    ico[entry.at] = 40
    ico[entry.at + 1] = 40
    const dir = buildWith('icon.ico', ico)
    expectProblems(dir, 'windows', [
      `${join(dir, 'icon.ico')}: image 4 of 7 (40x40) holds a PNG of 48x48`,
    ])
  })

  it('an ICNS whose length field lies', () => {
    const icns = Buffer.from(committed('icon.icns'))
    icns.writeUInt32BE(icns.length + 10, 4)
    const dir = buildWith('icon.icns', icns)
    expectProblems(dir, 'macos', [
      `${join(dir, 'icon.icns')}: says it is ${icns.length + 10} bytes long, but has ${icns.length}`,
    ])
  })

  it('an ICNS cut off in its last entry, which was its only 1024 px one', () => {
    const icns = committed('icon.icns')
    const lastAt = icnsEntryAt(icns, 'ic10')
    const cut = icns.subarray(0, lastAt + 500)
    const dir = buildWith('icon.icns', cut)
    const file = join(dir, 'icon.icns')
    expectProblems(dir, 'macos', [
      `${file}: says it is ${icns.length} bytes long, but has ${cut.length}`,
      `${file}: entry 'ic10' at byte ${lastAt} runs to byte ${icns.length}, past the end of the file (${cut.length})`,
    ])
    expect(checkIcons(dir).macos.sizes).toEqual([16, 32, 64, 128, 256, 512])
  })

  it('an ICNS entry whose PNG is not its type size', () => {
    const icns = Buffer.from(committed('icon.icns'))
    const at = icnsEntryAt(icns, 'ic10')
    icns.write('ic08', at, 'latin1')
    const dir = buildWith('icon.icns', icns)
    expectProblems(dir, 'macos', [
      `${join(dir, 'icon.icns')}: entry 'ic08' at byte ${at} holds a PNG of 1024x1024, not 256x256`,
    ])
  })

  it('an ICNS with neither a 512 nor a 1024 px image', () => {
    const icns = Buffer.from(committed('icon.icns'))
    // Unknown types are walked over, so renaming both leaves a valid file without them.
    icns.write('zz09', icnsEntryAt(icns, 'ic09'), 'latin1')
    icns.write('zz10', icnsEntryAt(icns, 'ic10'), 'latin1')
    const dir = buildWith('icon.icns', icns)
    expectProblems(dir, 'macos', [
      `${join(dir, 'icon.icns')}: has no valid 512 or 1024 px image ('ic09' or 'ic10')`,
    ])
  })

  it('a Linux PNG of 128x128', () => {
    const ico = committed('icon.ico')
    const entry = icoEntries(ico).find(({ side }) => side === 128)!
    const dir = buildWith('icon.png', ico.subarray(entry.offset, entry.offset + entry.length))
    expectProblems(dir, 'linux', [
      `${join(dir, 'icon.png')}: is 128x128; at least 512x512 is needed`,
    ])
    expect(checkIcons(dir).linux.sizes).toEqual([])
  })

  it('a Linux PNG cut off before its end', () => {
    const png = committed('icon.png')
    const dir = buildWith('icon.png', png.subarray(0, png.length - 20))
    expectProblems(dir, 'linux', [`${join(dir, 'icon.png')}: is a PNG cut off in its IDAT chunk`])
  })

  it('a PNG whose signature was damaged (its first byte stripped to 7 bits in transfer)', () => {
    const png = Buffer.from(committed('icon.png'))
    png[0] = png[0]! & 0x7f
    expect(pngSize(png)).toBeNull()
    const dir = buildWith('icon.png', png)
    expectProblems(dir, 'linux', [
      `${join(dir, 'icon.png')}: is not a PNG (no PNG signature and IHDR header)`,
    ])
  })

  it('a file that is not an image at all', () => {
    const dir = buildWith('icon.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))
    expectProblems(dir, 'linux', [
      `${join(dir, 'icon.png')}: is not a PNG (no PNG signature and IHDR header)`,
    ])
  })
})
