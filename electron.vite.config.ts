import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import {
  readBuildEnvironment,
  readReleaseEnvironment,
} from './src/main/services/settings/build-environment'

const alias = {
  '@shared': resolve(__dirname, 'src/shared'),
  '@renderer': resolve(__dirname, 'src/renderer/src'),
}

/**
 * An installable build (`npm run package` sets TANDEM_RELEASE_BUILD) must name its production
 * backend and Firebase project, and throws naming what is missing or unsafe; a development build
 * falls back to the local stack.
 */
const buildEnvironment =
  process.env.TANDEM_RELEASE_BUILD === '1'
    ? readReleaseEnvironment(process.env)
    : readBuildEnvironment(process.env)

/** The renderer's build, and browser mode's watch (`npm run dev:web`, scripts/stack.ts) too. */
export const renderer = {
  resolve: { alias },
  plugins: [react()],
  // The Sandbox page drives the local stack's emulators: an installable build leaves it out.
  define: {
    __TANDEM_SANDBOX_CONTROLS__: JSON.stringify(process.env.TANDEM_RELEASE_BUILD !== '1'),
  },
}

export default defineConfig({
  main: {
    resolve: { alias },
    // The backend and Firebase settings a build ships with; a development run may override them.
    define: { __TANDEM_BUILD_ENV__: JSON.stringify(buildEnvironment) },
    // electron-vite leaves `dependencies` external (shipped in app.asar's node_modules) and bundles
    // devDependencies. Every package is a devDependency: main bundles what it runs (firebase's
    // auth, zod, the ESM-only electron-store and ky), so app.asar holds out/** and package.json,
    // not firebase's 44 MB. Only a package that cannot be bundled (a native module) belongs in
    // `dependencies`; `npm run package:check` proves app.asar holds whatever main requires.
  },
  preload: {
    resolve: { alias },
  },
  renderer: {
    ...renderer,
    build: {
      minify: true,
      chunkSizeWarningLimit: 1500,
    },
  },
})
