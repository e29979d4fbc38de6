import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { LongestFirst } from './tests/support/longest-first'

const alias = {
  '@shared': resolve(import.meta.dirname, 'src/shared'),
  '@renderer': resolve(import.meta.dirname, 'src/renderer/src'),
}

// One run, four layers: main-process units and the server (node), renderer components (jsdom), and
// end-to-end tests in Chromium. The projects take the root's options (Vitest 5: the aliases) but
// not its global setup, which starts the Firebase Auth emulator once for all of them.
/** Set (by .ci/run, or by hand) to repeat the server suite on a real PostgreSQL. */
const postgresUrl = process.env.TANDEM_TEST_DATABASE_URL

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default on two cores is one file at a time, yet most files spend their time
    // waiting on other processes (servers, emulators, PostgreSQL, Chromium): three at once took
    // the suite from 25 to 15 minutes on these machines. The e2e files share the three workers,
    // one e2e file at a time (tests/e2e/one-at-a-time.ts): alone after the rest, they held the
    // run up by four minutes with one worker busy.
    maxWorkers: 3,
    // Longest first across every project, so that the workers finish together.
    sequence: { sequencer: LongestFirst },
    globalSetup: ['tests/support/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'main',
          environment: 'node',
          include: ['tests/main/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Production has no database but PostgreSQL, and the database going away is PostgreSQL's
          // (a cluster of the test's own): they run in the project below.
          exclude: ['tests/server/production-mode.test.ts', 'tests/server/database-away.test.ts'],
          testTimeout: 20_000,
          // Always on the embedded SQLite; the project below repeats the suite on PostgreSQL.
          env: { TANDEM_TEST_DATABASE_URL: '' },
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                name: 'server-postgres',
                environment: 'node',
                include: ['tests/server/**/*.test.ts'],
                // What touches no database runs once, and what is SQLite's only there.
                exclude: [
                  'tests/server/config.test.ts',
                  'tests/server/sqlite-busy.test.ts',
                  'tests/server/domain.test.ts',
                  'tests/server/receipt.test.ts',
                  'tests/server/admin-cli.test.ts',
                  'tests/server/remote-call.test.ts',
                  'tests/server/preview-cache.test.ts',
                ],
                testTimeout: 20_000,
                env: { TANDEM_TEST_DATABASE_URL: postgresUrl },
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        // As a development build has it (electron.vite.config.ts): the Sandbox page is there.
        define: { __TANDEM_SANDBOX_CONTROLS__: 'true' },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['tests/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/renderer/setup.ts'],
        },
      },
      {
        test: {
          // Each benchmark's short form (`--short`), spawned as a person runs it: it still runs,
          // still makes its checks and leaves no process behind; its figures are not judged here.
          name: 'benchmarks',
          environment: 'node',
          include: ['tests/benchmarks/**/*.test.ts'],
          testTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page waited for (expect.poll) gets what `shows` gives it, 10 s, not Vitest's 1 s: a
          // reload on a busy machine (three files at once beside Chromium) took longer, and
          // failed a test one run in several.
          expect: { poll: { timeout: 10_000 } },
          // One e2e file at a time: they share the workers with the other projects' files.
          setupFiles: ['tests/e2e/one-at-a-time.ts'],
          // Builds the console first, only when an e2e file runs.
          globalSetup: ['tests/support/build-app.ts'],
        },
      },
    ],
  },
})
