import { randomBytes } from 'node:crypto'
import type { Agent } from 'node:http'
import { connect } from 'node:net'
import { initializeApp } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import { inject } from 'vitest'
import { runNpmScript } from '../../support/npm-script'

// The run's Auth emulator as an operator reaches it: firebase-admin for what the Firebase console
// would do (disable a user, revoke their sign-ins), `npm run admin` itself, and an outage.

let appCount = 0

/**
 * An email no other test has used: the run's one emulator serves the server suite on SQLite and
 * again on PostgreSQL, and keeps every user either makes.
 */
export const uniqueEmail = (name: string) => `${name}-${randomBytes(4).toString('hex')}@tandem.test`

/** firebase-admin against the run's Auth emulator. */
export function emulatorAuth(): Auth {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = new URL(inject('authEmulatorUrl')).host
  const app = initializeApp({ projectId: inject('authProjectId') }, `test-operator-${++appCount}`)
  return getAuth(app)
}

/** The environment `npm run admin` gets against the run's emulator. */
export const emulatorEnv = (): Record<string, string> => ({
  FIREBASE_AUTH_EMULATOR_HOST: new URL(inject('authEmulatorUrl')).host,
  TANDEM_FIREBASE_PROJECT_ID: inject('authProjectId'),
})

/** `npm run admin -- …args`. */
export const runAdminCli = (args: string[], env: Record<string, string>) =>
  runNpmScript('admin', args, env)

/**
 * Gives firebase-admin a network that is down: every connection of this agent goes to a closed
 * port on this machine and is refused, so no request ever leaves it.
 */
export function unreachableNetwork<A extends Agent>(agent: A, closedPort: number): A {
  agent.createConnection = () => connect({ host: '127.0.0.1', port: closedPort })
  return agent
}
