import { existsSync, readFileSync } from 'node:fs'
import { createRequire, isBuiltin } from 'node:module'
import { dirname, join, sep } from 'node:path'
import ts from 'typescript'

// What `npm run package:check` asks of a packaged app.asar: only the build output, package.json
// and the production dependencies went in, and everything the bundles require at run time is
// there. Functions over file lists and sources, so the rules are tested on their own.

/**
 * The names of the production dependencies: package.json's dependencies and optionalDependencies,
 * and theirs, found the way Node resolves them. Names, not folders: electron-builder lays
 * node_modules out anew (it may hoist a package the project keeps nested).
 */
export function productionPackages(projectDir: string): Set<string> {
  const names = new Set<string>()
  const visited = new Set<string>()
  const visit = (fromDir: string) => {
    const manifest = JSON.parse(readFileSync(join(fromDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    for (const name of Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
    })) {
      const folder = locatePackage(name, fromDir, projectDir)
      // An optional dependency for another platform is not installed here.
      if (!folder || visited.has(folder)) continue
      visited.add(folder)
      names.add(name)
      visit(folder)
    }
  }
  visit(projectDir)
  return names
}

function locatePackage(name: string, fromDir: string, projectDir: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === projectDir || dirname(dir) === dir) return null
  }
}

/**
 * The innermost package an archive path lies in (`/node_modules/a/node_modules/@s/b/x.js` → `@s/b`
 * in `/node_modules/a/node_modules/@s/b`), or null outside node_modules or on a scope folder.
 */
function packageOf(path: string): { name: string; folder: string } | null {
  const match = /^\/(?:node_modules\/(?:@[^/]+\/)?[^/]+\/)*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
    path,
  )
  const name = match?.[1]
  if (!match || !name || (name.startsWith('@') && !name.includes('/'))) return null
  return { name, folder: match[0] }
}

/**
 * What the archive holds beyond package.json, the build output (out/**) and the production
 * dependencies, each named once: a stray package by its folder, anything else by its top folder.
 * Folders that only lead to allowed files (`/node_modules`, `/node_modules/@s`, `…/node_modules`)
 * are allowed.
 */
export function unexpectedEntries(entries: string[], production: Set<string>): string[] {
  const stray = new Set<string>()
  for (const entry of entries) {
    if (entry === '/package.json' || entry === '/out' || entry.startsWith('/out/')) continue
    if (entry !== '/node_modules' && !entry.startsWith('/node_modules/')) {
      stray.add(`/${entry.split('/')[1]}`)
      continue
    }
    const owner = packageOf(entry)
    if (owner === null) {
      // A node_modules folder or a scope folder: fine when something allowed lies beneath.
      const leadsToAllowed = entries.some(
        (other) => other.startsWith(`${entry}/`) && production.has(packageOf(other)?.name ?? ''),
      )
      if (!leadsToAllowed) stray.add(entry)
      continue
    }
    if (!production.has(owner.name)) stray.add(owner.folder)
  }
  return [...stray]
}

/**
 * The modules a bundle requires: every `require("…")` call with a literal name, found by parsing
 * (code generators such as ajv's write `require(…)` inside template strings, which never run).
 */
export function requiredModules(source: string): string[] {
  const file = ts.createSourceFile('bundle.js', source, ts.ScriptTarget.Latest, false)
  const names = new Set<string>()
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require' &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0]!)
    ) {
      names.add(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return [...names].sort()
}

/**
 * Required modules that neither Node, Electron nor the unpacked archive provides: each is a
 * package a user's app would fail to load. Relative requires are resolved from the bundle's folder.
 */
export function unresolvedModules(
  required: string[],
  bundleFile: string,
  archiveRoot: string,
): string[] {
  const bundleRequire = createRequire(bundleFile)
  return required.filter((name) => {
    if (name === 'electron' || isBuiltin(name)) return false
    try {
      const resolved = bundleRequire.resolve(name)
      return !resolved.startsWith(archiveRoot + sep)
    } catch {
      return true
    }
  })
}
