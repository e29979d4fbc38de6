import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  productionPackages,
  requiredModules,
  unexpectedEntries,
  unresolvedModules,
} from '../../scripts/packaging/app-asar'
import { runNpmScript } from '../support/npm-script'

// `npm run package` refusing what would make an unsafe installer, and the rules
// `npm run package:check` holds a packaged app.asar to (the check itself runs in .ci/run).

let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'tandem-packaging-test-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
}

describe('npm run package', () => {
  it('refuses to build without production settings, naming each, before building anything', async () => {
    const result = await runNpmScript('package', [], {})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('A package needs its production settings:')
    for (const name of [
      'TANDEM_API_URL',
      'TANDEM_FIREBASE_API_KEY',
      'TANDEM_FIREBASE_AUTH_DOMAIN',
      'TANDEM_FIREBASE_PROJECT_ID',
    ]) {
      expect(result.stderr).toContain(`- ${name} is missing`)
    }
    expect(result.stdout).not.toContain('vite')
  })

  it('refuses a backend in clear over a network and the Auth emulator', async () => {
    const result = await runNpmScript('package', [], {
      TANDEM_API_URL: 'http://api.tandem.example',
      TANDEM_FIREBASE_API_KEY: 'key',
      TANDEM_FIREBASE_AUTH_DOMAIN: 'tandem-prod.firebaseapp.com',
      TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod',
      TANDEM_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099',
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      '- TANDEM_API_URL must be an https URL (plain http only to 127.0.0.1 or localhost), without a user name or password: got http://api.tandem.example.',
    )
    expect(result.stderr).toContain(
      '- TANDEM_AUTH_EMULATOR_URL is set: an installable build never signs in through the Auth emulator.',
    )
    expect(result.stderr).not.toContain('is missing')
  })
})

describe('production packages', () => {
  it('are the dependencies down from package.json, found as Node would find them', () => {
    const project = join(folder, 'project')
    write(join(project, 'package.json'), {
      dependencies: { a: '1' },
      optionalDependencies: { 'not-for-this-platform': '1' },
      devDependencies: { vite: '1' },
    })
    write(join(project, 'node_modules/a/package.json'), { dependencies: { b: '1', '@s/c': '1' } })
    // a's own b (a version conflict), and a hoisted @s/c.
    write(join(project, 'node_modules/a/node_modules/b/package.json'), {})
    write(join(project, 'node_modules/b/package.json'), {})
    write(join(project, 'node_modules/@s/c/package.json'), { dependencies: { b: '1' } })
    write(join(project, 'node_modules/vite/package.json'), {})
    expect([...productionPackages(project)].sort()).toEqual(['@s/c', 'a', 'b'])
  })
})

describe('app.asar entries', () => {
  const production = new Set(['a', '@s/c'])

  it('allow the build output, package.json and production packages, wherever they are laid out', () => {
    const entries = [
      '/package.json',
      '/out',
      '/out/main/index.js',
      '/out/renderer/assets/index-abc.js',
      '/node_modules',
      '/node_modules/a',
      '/node_modules/a/index.js',
      '/node_modules/@s',
      '/node_modules/@s/c/lib/c.js',
      // electron-builder may nest or hoist a package unlike the project's node_modules.
      '/node_modules/a/node_modules',
      '/node_modules/a/node_modules/@s/c/index.js',
    ]
    expect(unexpectedEntries(entries, production)).toEqual([])
  })

  it('name everything else once: sources, dev dependencies, stray files', () => {
    const entries = [
      '/src',
      '/src/main/index.ts',
      '/node_modules/vite/index.js',
      '/node_modules/vite/dist/node/cli.js',
      '/node_modules/a/node_modules/b/index.js',
      '/node_modules/@t',
      '/.env',
      '/release/app.AppImage',
    ]
    expect(unexpectedEntries(entries, production)).toEqual([
      '/src',
      '/node_modules/vite',
      '/node_modules/a/node_modules/b',
      '/node_modules/@t',
      '/.env',
      '/release',
    ])
    expect(unexpectedEntries(['/node_modules', '/node_modules/vite/x.js'], new Set())).toEqual([
      '/node_modules',
      '/node_modules/vite',
    ])
  })
})

describe('the main bundle', () => {
  it('requires what its code calls require on, not what a code generator writes in a string', () => {
    const bundle = [
      'const { app } = require("electron")',
      "const fs = require('node:fs')",
      'const chunk = require("./chunks/x.js")',
      'const later = () => require("zod")',
      'const code = `require("ajv/dist/runtime/validation_error").default`',
      '// require("in-a-comment")',
      'const dynamic = require(name)',
    ].join('\n')
    expect(requiredModules(bundle)).toEqual(['./chunks/x.js', 'electron', 'node:fs', 'zod'])
  })

  it('is refused when it requires a package the archive does not hold', () => {
    // A runtime package left in devDependencies, yet kept external: electron-builder leaves it
    // out of app.asar, and the installed app fails to start.
    const archive = join(folder, 'unpacked')
    const main = join(archive, 'out/main/index.js')
    write(main, '')
    write(join(archive, 'out/main/chunks/x.js'), '')
    write(join(archive, 'node_modules/zod/package.json'), { main: 'index.js' })
    write(join(archive, 'node_modules/zod/index.js'), '')
    const required = ['./chunks/x.js', 'electron', 'node:fs', 'path', 'zod', 'firebase/auth']
    expect(unresolvedModules(required, main, archive)).toEqual(['firebase/auth'])
    expect(unresolvedModules(['./chunks/missing.js'], main, archive)).toEqual([
      './chunks/missing.js',
    ])
  })

  it('is refused when a package resolves only from outside the archive', () => {
    // Found above the unpacked folder (as the project's node_modules would be): not installed.
    const outer = join(folder, 'outer')
    write(join(outer, 'node_modules/leaky/package.json'), { main: 'index.js' })
    write(join(outer, 'node_modules/leaky/index.js'), '')
    const archive = join(outer, 'unpacked')
    const main = join(archive, 'out/main/index.js')
    write(main, '')
    expect(unresolvedModules(['leaky'], main, archive)).toEqual(['leaky'])
  })
})
