import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { extractAll, listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { Arch, build, Platform } from 'electron-builder'
import { parse } from 'yaml'
import {
  productionPackages,
  requiredModules,
  unexpectedEntries,
  unresolvedModules,
} from './packaging/app-asar'
import { checkIcons } from './packaging/icons'
import { releaseBuild } from './packaging/release-build'

// `npm run package:check` (run by .ci/run): the Linux app folder electron-builder makes
// (`--dir`), built with production-shaped settings and checked as a user's machine would load it.
// No Electron binary can be downloaded here, so a stand-in folder is given as electronDist unless
// TANDEM_ELECTRON_DIST names a real unpacked Electron; fuses are flipped (and read back) only then.

const projectDir = resolve(__dirname, '..')
const ASAR_BUDGET_BYTES = 10 * 1024 * 1024
/** Settings of the production shape; nothing is ever sent to them. */
const CHECK_SETTINGS = {
  TANDEM_API_URL: 'https://api.tandem.example',
  TANDEM_FIREBASE_API_KEY: 'package-check-key',
  TANDEM_FIREBASE_AUTH_DOMAIN: 'tandem-check.firebaseapp.com',
  TANDEM_FIREBASE_PROJECT_ID: 'tandem-check',
}
/** A sandboxed preload may require only these. */
const PRELOAD_MODULES = new Set(['electron', 'events', 'timers', 'url'])

/** How @electron/fuses reads an enabled fuse: the character '1'. */
const FUSE_ENABLED = '1'.charCodeAt(0)

const problems: string[] = []
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

const work = mkdtempSync(join(tmpdir(), 'tandem-package-check-'))
check()
  .finally(() => rmSync(work, { recursive: true, force: true }))
  .then(() => {
    if (problems.length > 0) {
      console.error(`\npackage:check failed:\n${problems.map((p) => `- ${p}`).join('\n')}`)
      process.exit(1)
    }
    console.log('\npackage:check passed.')
  })
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })

async function check(): Promise<void> {
  releaseBuild({ ...process.env, ...CHECK_SETTINGS }, projectDir)

  const config = parse(readFileSync(join(projectDir, 'electron-builder.yml'), 'utf8')) as {
    electronFuses: Record<string, boolean>
  }
  const realDist = process.env.TANDEM_ELECTRON_DIST
  const electronDist = realDist ? resolve(realDist) : standInElectron(join(work, 'electron'))
  const output = join(work, 'release')
  await build({
    projectDir,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    config: {
      electronDist,
      directories: { output },
      // The stand-in has no fuse wire to flip.
      ...(realDist ? {} : { electronFuses: null }),
    },
  })
  const appDir = join(output, 'linux-unpacked')
  const asar = join(appDir, 'resources', 'app.asar')

  const unpacked = join(work, 'unpacked')
  extractAll(asar, unpacked)
  checkContents(asar, unpacked)
  checkRequires(unpacked)
  checkSize(asar)
  checkIconFiles()
  if (realDist) await checkFuses(join(appDir, 'tandem-admin'), config.electronFuses)
  else
    console.log(
      'Fuses: not flipped: the stand-in Electron has no binary (TANDEM_ELECTRON_DIST=<unpacked Electron> flips and checks them).',
    )
}

/** An unpacked-Electron-shaped folder: the executable electron-builder renames, and its folders. */
function standInElectron(folder: string): string {
  mkdirSync(join(folder, 'resources'), { recursive: true })
  mkdirSync(join(folder, 'locales'), { recursive: true })
  writeFileSync(join(folder, 'locales', 'en-US.pak'), '')
  writeFileSync(
    join(folder, 'electron'),
    '#!/bin/sh\necho "stand-in Electron: cannot run the app" >&2\nexit 1\n',
  )
  chmodSync(join(folder, 'electron'), 0o755)
  return folder
}

function checkContents(asar: string, unpacked: string): void {
  const entries = listPackage(asar, { isPack: false }).map((entry) => entry.split(sep).join('/'))
  const production = productionPackages(projectDir)
  for (const entry of unexpectedEntries(entries, production)) {
    problems.push(
      `app.asar holds ${entry}, which is neither out/**, package.json nor a production dependency.`,
    )
  }
  const built = files(join(projectDir, 'out'))
    .filter((file) => !file.endsWith('.map'))
    .map((file) => `/${relative(projectDir, file).split(sep).join('/')}`)
  for (const file of built.filter((file) => !entries.includes(file))) {
    problems.push(`app.asar lacks ${file} of the build.`)
  }
  const dependencies =
    production.size === 0 ? 'none (main bundles what it runs)' : [...production].join(', ')
  console.log(`app.asar: ${files(unpacked).length} files; production dependencies: ${dependencies}`)
}

/**
 * The bundles as a user's machine loads them: every module they require resolves inside the
 * archive, and main starts under plain Node with `electron` stubbed.
 */
function checkRequires(unpacked: string): void {
  const main = join(unpacked, 'out', 'main', 'index.js')
  const mainRequires = requiredModules(readFileSync(main, 'utf8'))
  for (const name of unresolvedModules(mainRequires, main, unpacked)) {
    problems.push(`out/main/index.js requires ${name}, which app.asar does not hold.`)
  }
  const preload = join(unpacked, 'out', 'preload', 'index.js')
  for (const name of requiredModules(readFileSync(preload, 'utf8'))) {
    if (!PRELOAD_MODULES.has(name))
      problems.push(`The sandboxed preload requires ${name}, which it cannot.`)
  }
  console.log(`Main requires: ${mainRequires.join(', ')}`)

  const exports = electronExports()
  if (exports.length === 0) throw new Error("Electron's exports were not found in electron.d.ts")
  const loaded = spawnSync(process.execPath, ['-e', LOAD_WITH_ELECTRON_STUB, main, ...exports], {
    cwd: unpacked,
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (loaded.status !== 0) {
    problems.push(
      `out/main/index.js does not load under Node with electron stubbed:\n${loaded.stderr}`,
    )
  } else {
    console.log('Main bundle: loads under Node with electron stubbed.')
  }
}

/** The names the installed Electron exports (`app`, `BrowserWindow`, …), from its typings. */
function electronExports(): string[] {
  const typings = readFileSync(join(projectDir, 'node_modules/electron/electron.d.ts'), 'utf8')
  const block = /namespace CrossProcessExports \{([\s\S]*?)\n {2}\}/.exec(typings)?.[1] ?? ''
  return [...block.matchAll(/^\s+(?:const|class) (\w+)/gm)].map((match) => match[1]!)
}

/**
 * Loads the bundle given as first argument with `electron` answered by a stub module: each
 * export Electron has (the other arguments) is a value that returns itself for any property or
 * call. `app.whenReady().then(start)` never calls start, so nothing opens, but every module main
 * requires at start is resolved and run.
 */
const LOAD_WITH_ELECTRON_STUB = `
const Module = require('node:module')
const [bundle, ...names] = process.argv.slice(1)
const value = new Proxy(function stub() {}, {
  get: (_target, property) => (typeof property === 'symbol' ? undefined : value),
  apply: () => value,
  construct: () => value,
})
const electron = Object.fromEntries(names.map((name) => [name, value]))
const load = Module._load
Module._load = function (request, ...rest) {
  return request === 'electron' ? electron : load.call(this, request, ...rest)
}
require(bundle)
process.exit(0)
`

function checkSize(asar: string): void {
  const size = statSync(asar).size
  console.log(
    `app.asar: ${mb(size)}, ${size.toLocaleString('en')} bytes (budget ${mb(ASAR_BUDGET_BYTES)})`,
  )
  if (size > ASAR_BUDGET_BYTES)
    problems.push(`app.asar is ${mb(size)}, over its budget of ${mb(ASAR_BUDGET_BYTES)}.`)
}

function checkIconFiles(): void {
  const report = checkIcons(join(projectDir, 'build'))
  for (const [os, icon] of Object.entries(report)) {
    console.log(`Icon for ${os}: ${icon.file} (${icon.sizes.join(', ')} px)`)
    problems.push(...icon.problems)
  }
}

/** The real binary's fuse wire, read back, against electron-builder.yml's electronFuses. */
async function checkFuses(executable: string, wanted: Record<string, boolean>): Promise<void> {
  const wire = await getCurrentFuseWire(executable)
  for (const [name, enabled] of Object.entries(wanted)) {
    const option =
      FuseV1Options[(name[0]!.toUpperCase() + name.slice(1)) as keyof typeof FuseV1Options]
    const isEnabled = wire[option] === FUSE_ENABLED
    if (isEnabled !== enabled)
      problems.push(
        `Fuse ${name} is ${isEnabled ? 'on' : 'off'} in the packaged binary; electron-builder.yml wants it ${enabled ? 'on' : 'off'}.`,
      )
  }
  console.log(`Fuses: flipped and read back from ${executable}.`)
}

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
  )
}
