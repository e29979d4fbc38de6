import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { metaPolicy } from './src/main/security'
import { readBuildEnvironment } from './src/main/services/settings/build-environment'

const alias = {
  '@shared': resolve(__dirname, 'src/shared'),
  '@renderer': resolve(__dirname, 'src/renderer/src'),
}

const buildEnvironment = readBuildEnvironment(process.env)

/**
 * A packaged window loads file:// pages, which get no response headers, so built pages carry the
 * same policy as main's header (security.ts) in a meta tag: the build's backend is the only image
 * host besides Shopify's CDN. The dev server gets none: its React Refresh preamble is inline, and
 * main's dev header allows it.
 */
const contentSecurityPolicyMeta: Plugin = {
  name: 'tandem:content-security-policy-meta',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content: metaPolicy(buildEnvironment.apiUrl),
      },
      injectTo: 'head-prepend',
    },
  ],
}

export default defineConfig({
  main: {
    resolve: { alias },
    // The backend and Firebase settings a build ships with; run time may override them.
    define: { __TANDEM_BUILD_ENV__: JSON.stringify(buildEnvironment) },
    // `dependencies` (firebase, zod) stay external and ship in app.asar; devDependencies such as
    // the ESM-only electron-store 11 and ky 1 are bundled into the CommonJS main.
  },
  preload: {
    resolve: { alias },
  },
  renderer: {
    resolve: { alias },
    plugins: [react(), contentSecurityPolicyMeta],
    build: {
      minify: true,
      chunkSizeWarningLimit: 1500,
    },
  },
})
