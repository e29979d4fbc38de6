import { statSync } from 'node:fs'
import { bundleServer, DEPLOYED_ENTRIES } from './bundle'

// `npm run build --workspace server`: the server and its two operator commands bundled to
// server/dist (main.cjs, admin.cjs, rotate-secrets.cjs), which the container image runs with node
// alone. This script is itself compiled by esbuild before it runs (see package.json), so that a
// build needs only the server's own dependencies, not tsx from the desktop app's.

async function main(): Promise<void> {
  for (const [entry, outfile] of Object.entries(DEPLOYED_ENTRIES)) {
    const bundle = await bundleServer(entry, outfile)
    const kb = Math.round(statSync(bundle).size / 1024)
    console.log(`server/dist/${outfile}  ${kb} KB  <- server/${entry}`)
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
