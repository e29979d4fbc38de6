import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { InlineConfig } from 'vite'
import { renderer } from '../electron.vite.config'
import { startShopifyEmulator } from '../emulators/shopify/emulator'
import { WEBHOOK_PATH } from '../server/src/adapters/commerce/shopify/shopify-webhooks'
import {
  startStripeEmulator,
  STRIPE_LIVE_RATE_LIMITS,
  STRIPE_SANDBOX_RATE_LIMITS,
  type StripeRateLimits,
} from '../emulators/stripe/emulator'
import { startBrowserHost, type BrowserHost } from '../src/browser-host/host'
import { BROWSER_HOST } from '../src/shared/browser-host'
import {
  LOCAL_DEFAULTS,
  readBuildEnvironment,
} from '../src/main/services/settings/build-environment'
import { assertPortFree, waitForHttp } from './lib/ports'
import {
  DEMO_ADMIN,
  startAuthEmulator,
  upsertEmulatorUser,
  type AuthEmulator,
} from './lib/auth-emulator'
import { buildIfStale } from './lib/build'
import { stopChild } from './lib/children'
import { npmBin, stackDataDir } from './lib/paths'
import { createShutdown } from './lib/shutdown'

// The local stack: Firebase Auth emulator with the demo admin, the Shopify and Stripe emulators
// with the sandbox marketplace's stores and payments, the Tandem server on the embedded database
// reaching them through its adapters, then the console, as a desktop app (`npm start`) or in
// browser mode (`npm run start:web`). Ctrl-C stops every child; the data stays in TANDEM_DATA_DIR.

const root = resolve(__dirname, '..')
const mode = process.argv.includes('--web') ? 'web' : 'desktop'
/** `npm run dev:web`: browser mode with the renderer under Vite's dev server (edits reload). */
const watch = mode === 'web' && process.argv.includes('--watch')
const ports = {
  web: Number(process.env.TANDEM_WEB_PORT || 5180),
  api: Number(process.env.TANDEM_API_PORT || 8787),
  auth: Number(process.env.TANDEM_AUTH_PORT || 9099),
  shopify: Number(process.env.TANDEM_SHOPIFY_PORT || 8788),
  stripe: Number(process.env.TANDEM_STRIPE_PORT || 8789),
}
const dataDir = stackDataDir(root)
const shutdown = createShutdown({ signalExitCode: 0 })

/** TANDEM_STRIPE_EMULATOR_RATE_LIMITS=live or sandbox: the emulator refuses what Stripe would. */
function stripeRateLimits(setting: string | undefined): StripeRateLimits | undefined {
  if (!setting) return undefined
  if (setting === 'live') return STRIPE_LIVE_RATE_LIMITS
  if (setting === 'sandbox') return STRIPE_SANDBOX_RATE_LIMITS
  throw new Error(
    `TANDEM_STRIPE_EMULATOR_RATE_LIMITS must be "live" or "sandbox", not "${setting}"`,
  )
}

async function main(): Promise<void> {
  if (mode === 'desktop') ensureElectronBinary()
  // Rather than talk to someone else's emulator or server on a taken port.
  await assertPortFree(ports.auth, 'TANDEM_AUTH_PORT')
  await assertPortFree(ports.api, 'TANDEM_API_PORT')
  await assertPortFree(ports.shopify, 'TANDEM_SHOPIFY_PORT')
  await assertPortFree(ports.stripe, 'TANDEM_STRIPE_PORT')
  if (mode === 'web') await assertPortFree(ports.web, 'TANDEM_WEB_PORT')
  mkdirSync(dataDir, { recursive: true })
  if (!watch) buildIfStale(root)

  const emulator: AuthEmulator = await startAuthEmulator({
    port: ports.auth,
    workDir: join(dataDir, 'auth-emulator'),
    onOutput: (line) => {
      if (/error/i.test(line)) console.log(`[auth] ${line}`)
    },
  })
  shutdown.add(() => emulator.stop())
  await upsertEmulatorUser(emulator.url, emulator.projectId, DEMO_ADMIN)
  console.log(`Firebase Auth emulator at ${emulator.url}; demo admin ${DEMO_ADMIN.email}`)

  const apiUrl = `http://127.0.0.1:${ports.api}`
  // Its state is kept beside the server's database, so that brand orders outlive a restart too.
  const shopify = await startShopifyEmulator({
    port: ports.shopify,
    imageBaseUrl: apiUrl,
    // The app's configuration sends the compliance topics where Tandem takes every webhook.
    complianceUri: `${apiUrl}${WEBHOOK_PATH}`,
    stateFile: join(dataDir, 'shopify-emulator.json'),
  })
  shutdown.add(() => shopify.close())
  console.log(`Shopify emulator at ${shopify.url}`)
  const stripe = await startStripeEmulator({
    port: ports.stripe,
    stateFile: join(dataDir, 'stripe-emulator.json'),
    rateLimits: stripeRateLimits(process.env.TANDEM_STRIPE_EMULATOR_RATE_LIMITS),
  })
  shutdown.add(() => stripe.close())
  console.log(`Stripe emulator at ${stripe.url}`)

  const server = spawn(process.execPath, ['--import', 'tsx', join('server', 'src', 'main.ts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      TANDEM_API_PORT: String(ports.api),
      TANDEM_DATA_DIR: dataDir,
      TANDEM_SECRET_KEY: secretKey(),
      TANDEM_PUBLIC_URL: apiUrl,
      TANDEM_FIREBASE_PROJECT_ID: emulator.projectId,
      TANDEM_SHOPIFY_ENDPOINT: shopify.url,
      TANDEM_STRIPE_ENDPOINT: stripe.url,
      STRIPE_SECRET_KEY: stripe.secretKey,
      FIREBASE_AUTH_EMULATOR_HOST: new URL(emulator.url).host,
      // Each request's lines at debug: the console polls, and they would bury the warnings.
      TANDEM_LOG_REQUESTS: 'debug',
    },
  })
  shutdown.add(() => stopChild(server))
  server.once('exit', (code) => {
    if (!shutdown.stopping) {
      console.error(`The Tandem server stopped (${code ?? 'signal'}).`)
      void shutdown.stopAll(1)
    }
  })
  await waitForHttp(`${apiUrl}/healthz`, 60_000)
  console.log(`Tandem server at ${apiUrl}`)

  const environment = readBuildEnvironment(process.env, {
    ...LOCAL_DEFAULTS,
    apiUrl,
    authEmulatorUrl: emulator.url,
  })

  if (mode === 'web') {
    const host: BrowserHost = await startBrowserHost({
      port: ports.web,
      rendererDir: join(root, 'out', 'renderer'),
      dataDir,
      buildEnvironment: environment,
      watch: watch ? rendererWatch() : undefined,
    })
    shutdown.add(() => host.close())
    console.log(`${BROWSER_HOST.announcement} ${host.url}`)
  } else {
    const electron = spawn(npmBin(root, 'electron-vite'), ['preview', '--skipBuild'], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        TANDEM_API_URL: environment.apiUrl,
        TANDEM_AUTH_EMULATOR_URL: emulator.url,
      },
    })
    shutdown.add(() => stopChild(electron))
    electron.once('exit', (code) => {
      if (!shutdown.stopping) {
        console.log(`Tandem Admin exited (${code ?? 'signal'}).`)
        void shutdown.stopAll(code ?? 0)
      }
    })
  }
}

/**
 * The renderer's build configuration under Vite's dev server. It serves the sources and
 * node_modules only, never the data folder (.tandem) where the secret key lies.
 */
function rendererWatch(): InlineConfig {
  return {
    ...renderer,
    root: join(root, 'src', 'renderer'),
    server: { fs: { allow: [join(root, 'src'), join(root, 'node_modules')] } },
  }
}

/** The key that seals client secrets: made once per data folder and kept there (owner only). */
function secretKey(): string {
  if (process.env.TANDEM_SECRET_KEY) return process.env.TANDEM_SECRET_KEY
  const file = join(dataDir, 'secret.key')
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 })
  return readFileSync(file, 'utf8').trim()
}

/**
 * Electron 42 and later download their binary on first use, not at install: fetched here, before
 * anything starts, so that a machine that cannot download it hears so at once (the package's own
 * installer does nothing when the binary of its version is there).
 */
function ensureElectronBinary(): void {
  const installer = join(root, 'node_modules', 'electron', 'install.js')
  const result = spawnSync(process.execPath, [installer], { stdio: 'inherit', timeout: 600_000 })
  if (result.status !== 0) {
    throw new Error(
      'The Electron binary could not be downloaded here. ' +
        'Run `npm run start:web` for the console in browser mode, or `npm start` where it can be.',
    )
  }
}

// npm does not always pass a SIGTERM on to its script: when the npm process that started the
// stack goes away, the stack goes too rather than outlive it.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) void shutdown.stopAll(0)
}, 1000).unref()

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  await shutdown.stopAll(1)
})
