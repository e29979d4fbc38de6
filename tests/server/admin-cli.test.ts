import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../scripts/lib/ports'
import { emulatorAuth, emulatorEnv, runAdminCli, uniqueEmail } from './support/firebase-users'
import { idToken } from './support/server-under-test'

// `npm run admin -- grant|revoke|list` end to end against the run's real Auth emulator, as an
// operator types it. What the server does with the claim is in auth.test.ts.

const operator = uniqueEmail('operator-made')
const auth = emulatorAuth()
/** The first line of every answer: where the command acted. */
const emulatorTarget = () =>
  `Firebase Auth emulator at ${new URL(inject('authEmulatorUrl')).host}, project ${inject('authProjectId')}`
const claimsOf = async (email: string) => (await auth.getUserByEmail(email)).customClaims ?? {}

let folder: string
beforeAll(async () => {
  await idToken(inject('authEmulatorUrl'), inject('authProjectId'), { email: operator })
  await auth.setCustomUserClaims((await auth.getUserByEmail(operator)).uid, { team: 'ops' })
  folder = mkdtempSync(join(tmpdir(), 'tandem-admin-cli-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

// Each test starts npm a few times: slow on a loaded machine, so the tests get a minute.
describe('npm run admin against the Auth emulator', { timeout: 60_000 }, () => {
  it('grants the claim, keeping the claims the user had, and lists them', async () => {
    const granted = await runAdminCli(['grant', operator], emulatorEnv())
    expect(granted).toMatchObject({ exitCode: 0, stderr: expect.not.stringContaining(operator) })
    expect(granted.stdout).toBe(
      `${emulatorTarget()}:\n` +
        `${operator} is now a Tandem administrator. The Tandem server sees the change within a minute.`,
    )
    expect(await claimsOf(operator)).toEqual({ team: 'ops', admin: true })

    const listed = await runAdminCli(['list'], emulatorEnv())
    expect(listed.exitCode).toBe(0)
    expect(listed.stdout.split('\n')).toContain(operator)
    expect(listed.stdout).toMatch(/^\d+ administrators? with the claim\.$/m)

    const again = await runAdminCli(['grant', ` ${operator.toUpperCase()} `], emulatorEnv())
    expect(again).toMatchObject({
      exitCode: 0,
      stdout: `${emulatorTarget()}:\n${operator} is already a Tandem administrator.`,
    })
  })

  it('revokes the claim, keeping the other claims, and drops them from the list', async () => {
    await runAdminCli(['grant', operator], emulatorEnv())
    const revoked = await runAdminCli(['revoke', operator], {
      ...emulatorEnv(),
      TANDEM_ADMIN_EMAILS: `boss@tandem.test, ${operator}`,
    })
    expect(revoked.exitCode).toBe(0)
    expect(revoked.stdout).toBe(
      `${emulatorTarget()}:\n` +
        `${operator} is no longer a Tandem administrator. The Tandem server sees the change within a minute.\n` +
        `Note: ${operator} is also in TANDEM_ADMIN_EMAILS; remove it there too, or they stay an administrator.`,
    )
    expect(await claimsOf(operator)).toEqual({ team: 'ops' })
    expect((await runAdminCli(['list'], emulatorEnv())).stdout.split('\n')).not.toContain(operator)

    const again = await runAdminCli(['revoke', operator], emulatorEnv())
    expect(again).toMatchObject({
      exitCode: 0,
      stdout: `${emulatorTarget()}:\n${operator} does not have the administrator claim; nothing changed.`,
    })
  })

  it('says who must sign up first for an email no user has', async () => {
    const result = await runAdminCli(['grant', 'nobody@tandem.test'], emulatorEnv())
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(
      'No Firebase user has the email nobody@tandem.test: they must sign up (or be added in the ' +
        'Firebase console) before they can be made an administrator.',
    )
  })

  it.each([
    [[], 'Usage: npm run admin -- <command>'],
    [['promote', operator], 'Unknown command "promote".'],
    [['grant'], 'grant takes one email.'],
    [['revoke', 'a@tandem.test', 'b@tandem.test'], 'revoke takes one email.'],
    [['list', operator], 'list takes no email.'],
    [['grant', 'not-an-email'], '"not-an-email" is not an email address.'],
  ])('refuses the command line %j with exit code 2', async (args, message) => {
    const result = await runAdminCli(args, emulatorEnv())
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(message)
  })

  it('says to start the local stack when no emulator answers', async () => {
    const closed = `127.0.0.1:${await freePort()}`
    const result = await runAdminCli(['list'], { FIREBASE_AUTH_EMULATOR_HOST: closed })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      `The Firebase Auth emulator is not answering at ${closed}. Start the local stack first ` +
        '(npm start or npm run start:web), or, for a real project, set ' +
        'GOOGLE_APPLICATION_CREDENTIALS and TANDEM_FIREBASE_PROJECT_ID.',
    )
  })

  it("finds the local stack's emulator through TANDEM_AUTH_PORT", async () => {
    const port = new URL(inject('authEmulatorUrl')).port
    const result = await runAdminCli(['grant', operator], { TANDEM_AUTH_PORT: port })
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')[0]).toBe(
      `Firebase Auth emulator at 127.0.0.1:${port}, project ${inject('authProjectId')}:`,
    )
    expect(await claimsOf(operator)).toEqual({ team: 'ops', admin: true })
  })
})

describe('npm run admin against a real project', { timeout: 60_000 }, () => {
  it('refuses to guess between an emulator and a real project', async () => {
    const result = await runAdminCli(['list'], {
      ...emulatorEnv(),
      GOOGLE_APPLICATION_CREDENTIALS: join(folder, 'key.json'),
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      'Both FIREBASE_AUTH_EMULATOR_HOST and GOOGLE_APPLICATION_CREDENTIALS are set',
    )
  })

  it('needs credentials for a project that is not an emulator one', async () => {
    const result = await runAdminCli(['list'], { TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod' })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      'No credentials for the Firebase project "tandem-prod": set GOOGLE_APPLICATION_CREDENTIALS',
    )
  })

  it('needs the project named beside the credentials', async () => {
    const result = await runAdminCli(['list'], {
      GOOGLE_APPLICATION_CREDENTIALS: join(folder, 'key.json'),
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      'TANDEM_FIREBASE_PROJECT_ID is missing: name the Firebase project whose administrators to change',
    )
  })

  it('says when the credentials file cannot be read', async () => {
    const missing = join(folder, 'missing.json')
    const result = await runAdminCli(['grant', operator], {
      GOOGLE_APPLICATION_CREDENTIALS: missing,
      TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod',
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      `GOOGLE_APPLICATION_CREDENTIALS names "${missing}", which cannot be read (ENOENT).`,
    )
  })

  it('says when the credentials file is not a service account key', async () => {
    const notAKey = join(folder, 'not-a-key.json')
    writeFileSync(notAKey, JSON.stringify({ type: 'authorized_user', refresh_token: 'x' }))
    const result = await runAdminCli(['list'], {
      GOOGLE_APPLICATION_CREDENTIALS: notAKey,
      TANDEM_FIREBASE_PROJECT_ID: 'tandem-prod',
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      `GOOGLE_APPLICATION_CREDENTIALS names "${notAKey}", which is not a service account key`,
    )
  })
})
