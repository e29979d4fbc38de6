import { join, resolve } from 'node:path'
import { build } from 'esbuild'

// The server as it is deployed: one CommonJS file per entry point, its own code and src/shared
// (the `@shared` alias) compiled in, every package left to node_modules (better-sqlite3 is native,
// pdfkit reads its font metrics from its own folder, firebase-admin and stripe load parts lazily).
// `npm run build` (scripts/build.ts), the container image, the benchmarks and the crash harness
// all bundle through here, so that what they run is what ships.

// server/scripts/ when run through tsx, server/dist/ when scripts/build.ts runs bundled: either way
// one level below server/.
const serverDir = resolve(__dirname, '..')

/** What `npm run build` writes to server/dist: entry point (relative to server/) -> file name. */
export const DEPLOYED_ENTRIES = {
  'src/main.ts': 'main.cjs',
  'src/cli/admin.ts': 'admin.cjs',
  'src/cli/rotate-secrets.ts': 'rotate-secrets.cjs',
} as const

/**
 * Bundles `entry` (relative to server/) to `outfile` (absolute, or relative to server/dist) and
 * answers the bundle's absolute path. The bundle must stay inside server/ (server/dist), where
 * Node finds the packages it requires in node_modules above it.
 */
export async function bundleServer(entry: string, outfile: string): Promise<string> {
  const out = resolve(serverDir, 'dist', outfile)
  await build({
    entryPoints: [join(serverDir, entry)],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    packages: 'external',
    alias: { '@shared': join(serverDir, '..', 'src', 'shared') },
    logLevel: 'warning',
  })
  return out
}
