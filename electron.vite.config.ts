import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { readBuildEnvironment } from './src/main/services/settings/build-environment'

const alias = {
  '@shared': resolve(__dirname, 'src/shared'),
  '@renderer': resolve(__dirname, 'src/renderer/src'),
}

export default defineConfig({
  main: {
    resolve: { alias },
    // The backend and Firebase settings a build ships with; run time may override them.
    define: { __TANDEM_BUILD_ENV__: JSON.stringify(readBuildEnvironment(process.env)) },
    build: {
      // electron-store 11 and ky 1 are ESM-only: bundle them into the CommonJS main.
      externalizeDeps: { exclude: ['electron-store', 'ky'] },
    },
  },
  preload: {
    resolve: { alias },
  },
  renderer: {
    resolve: { alias },
    plugins: [react()],
    build: {
      minify: true,
      chunkSizeWarningLimit: 1500,
    },
  },
})
