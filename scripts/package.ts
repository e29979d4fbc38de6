import { resolve } from 'node:path'
import { releaseBuild, run } from './packaging/release-build'

// `npm run package [-- electron-builder options]`: the installers, from a build with production
// settings only (TANDEM_API_URL and the Firebase project; docs/operations.md: Packaging).

const projectDir = resolve(__dirname, '..')
releaseBuild(process.env, projectDir)
run('npx', ['electron-builder', ...process.argv.slice(2)], projectDir)
