import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

// Debian's Chromium driven by playwright-core: the browser is never downloaded by a test tool.
export const CHROMIUM_PATH = process.env.TANDEM_CHROMIUM_PATH || '/usr/bin/chromium'

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`)
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  })
}
