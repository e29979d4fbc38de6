import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { readBuildEnvironment } from './src/main/services/settings/build-environment'

const alias = {
  '@shared': resolve(__dirname, 'src/shared'),
  '@renderer': resolve(__dirname, 'src/renderer/src'),
}

/**
 * index.html's meta CSP guards packaged builds, whose file:// pages get no response headers. The
 * dev server's React Refresh preamble is an inline script, so in development only main's header
 * (which allows it there) applies.
 */
const dropMetaCspInDev: Plugin = {
  name: 'tandem:drop-meta-csp-in-dev',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html.replace(/<meta\s+http-equiv="Content-Security-Policy"[\s\S]*?\/>/, ''),
}

export default defineConfig({
  main: {
    resolve: { alias },
    // The backend and Firebase settings a build ships with; run time may override them.
    define: { __TANDEM_BUILD_ENV__: JSON.stringify(readBuildEnvironment(process.env)) },
    // `dependencies` (firebase, zod) stay external and ship in app.asar; devDependencies such as
    // the ESM-only electron-store 11 and ky 1 are bundled into the CommonJS main.
  },
  preload: {
    resolve: { alias },
  },
  renderer: {
    resolve: { alias },
    plugins: [react(), dropMetaCspInDev],
    build: {
      minify: true,
      chunkSizeWarningLimit: 1500,
    },
  },
})
