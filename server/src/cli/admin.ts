import { readFileSync } from 'node:fs'
import { cert, initializeApp, type App } from 'firebase-admin/app'
import { getAuth, type Auth, type UserRecord } from 'firebase-admin/auth'
import { CliError, runCommand, type Env } from './command-line'

// `npm run admin -- grant|revoke|list [email]`: sets, clears and lists the custom claim `admin:
// true` that makes a Firebase user a Tandem administrator (docs/operations.md "Who gets in").
// Locally it talks to the local stack's Auth emulator; with GOOGLE_APPLICATION_CREDENTIALS and
// TANDEM_FIREBASE_PROJECT_ID, to a real Firebase project.

const USAGE = `Usage: npm run admin -- <command>
  grant <email>    make the Firebase user with this email a Tandem administrator
  revoke <email>   take the administrator claim away from them
  list             the users who have the administrator claim

Against the local stack's Auth emulator (FIREBASE_AUTH_EMULATOR_HOST, else 127.0.0.1:TANDEM_AUTH_PORT
or 9099), or a real project with GOOGLE_APPLICATION_CREDENTIALS and TANDEM_FIREBASE_PROJECT_ID.`

const LOCAL_PROJECT_ID = 'demo-tandem'
/** The server reads a user's claims at most this long after it last did (src/auth/verify.ts). */
const SERVER_SEES_IT = 'The Tandem server sees the change within a minute.'

type Target =
  | { kind: 'emulator'; host: string; projectId: string }
  | { kind: 'project'; projectId: string; credentialsFile: string }

/** Where the command acts: an emulator, or a real project with a service account's key. */
function adminTarget(env: Env): Target {
  const projectId = env.TANDEM_FIREBASE_PROJECT_ID?.trim() || undefined
  if (env.FIREBASE_AUTH_EMULATOR_HOST && env.GOOGLE_APPLICATION_CREDENTIALS) {
    // Which one was meant? Acting on the emulator while the operator thinks of production (or
    // the other way round) is worse than asking.
    throw new CliError(
      'Both FIREBASE_AUTH_EMULATOR_HOST and GOOGLE_APPLICATION_CREDENTIALS are set: unset the ' +
        'first to change a real project, or the second to change the emulator.',
    )
  }
  if (env.FIREBASE_AUTH_EMULATOR_HOST) {
    return {
      kind: 'emulator',
      host: env.FIREBASE_AUTH_EMULATOR_HOST,
      projectId: projectId ?? LOCAL_PROJECT_ID,
    }
  }
  const credentialsFile = env.GOOGLE_APPLICATION_CREDENTIALS?.trim()
  if (credentialsFile) {
    if (!projectId) {
      throw new CliError(
        'TANDEM_FIREBASE_PROJECT_ID is missing: name the Firebase project whose administrators ' +
          'to change (GOOGLE_APPLICATION_CREDENTIALS is set).',
      )
    }
    return { kind: 'project', projectId, credentialsFile }
  }
  // Firebase's convention: a project named demo-… exists only in emulators.
  if (projectId && !projectId.startsWith('demo-')) {
    throw new CliError(
      `No credentials for the Firebase project "${projectId}": set GOOGLE_APPLICATION_CREDENTIALS ` +
        "to the path of a service account key (JSON) of that project, from the Firebase console's " +
        'Project settings > Service accounts.',
    )
  }
  return {
    kind: 'emulator',
    host: `127.0.0.1:${env.TANDEM_AUTH_PORT || 9099}`,
    projectId: projectId ?? LOCAL_PROJECT_ID,
  }
}

async function connect(target: Target): Promise<Auth> {
  let app: App
  if (target.kind === 'emulator') {
    await assertEmulatorAnswers(target.host)
    // firebase-admin finds the emulator through this variable.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = target.host
    app = initializeApp({ projectId: target.projectId })
  } else {
    app = initializeApp({
      projectId: target.projectId,
      credential: cert(readServiceAccount(target.credentialsFile)),
    })
  }
  return getAuth(app)
}

async function assertEmulatorAnswers(host: string): Promise<void> {
  try {
    await fetch(`http://${host}/`, { signal: AbortSignal.timeout(3000) })
  } catch {
    throw new CliError(
      `The Firebase Auth emulator is not answering at ${host}. Start the local stack first ` +
        '(npm start or npm run start:web), or, for a real project, set ' +
        'GOOGLE_APPLICATION_CREDENTIALS and TANDEM_FIREBASE_PROJECT_ID.',
    )
  }
}

function readServiceAccount(file: string): {
  projectId: string
  clientEmail: string
  privateKey: string
} {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new CliError(
      `GOOGLE_APPLICATION_CREDENTIALS names "${file}", which cannot be read (${reason}).`,
    )
  }
  try {
    const key = JSON.parse(text) as Record<string, unknown>
    if (typeof key.client_email === 'string' && typeof key.private_key === 'string') {
      return {
        projectId: String(key.project_id ?? ''),
        clientEmail: key.client_email,
        privateKey: key.private_key,
      }
    }
  } catch {
    // Worded below, with the case of a JSON file of another kind.
  }
  throw new CliError(
    `GOOGLE_APPLICATION_CREDENTIALS names "${file}", which is not a service account key ` +
      '(a JSON file with client_email and private_key).',
  )
}

async function userByEmail(auth: Auth, email: string): Promise<UserRecord> {
  try {
    return await auth.getUserByEmail(email)
  } catch (error) {
    if ((error as { code?: string }).code === 'auth/user-not-found') {
      throw new CliError(
        `No Firebase user has the email ${email}: they must sign up (or be added in the Firebase ` +
          'console) before they can be made an administrator.',
      )
    }
    throw error
  }
}

function emailArgument(command: string, args: string[]): string {
  const [email, ...extra] = args
  if (!email || extra.length > 0) throw new CliError(`${command} takes one email.\n\n${USAGE}`, 2)
  const normalized = email.trim().toLowerCase()
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(normalized)) {
    throw new CliError(`"${email}" is not an email address.`, 2)
  }
  return normalized
}

async function grant(auth: Auth, email: string): Promise<string> {
  const user = await userByEmail(auth, email)
  if (user.customClaims?.admin === true) return `${email} is already a Tandem administrator.`
  await auth.setCustomUserClaims(user.uid, { ...user.customClaims, admin: true })
  return `${email} is now a Tandem administrator. ${SERVER_SEES_IT}`
}

async function revoke(auth: Auth, email: string, env: Env): Promise<string> {
  const user = await userByEmail(auth, email)
  const listed = (env.TANDEM_ADMIN_EMAILS ?? '')
    .split(',')
    .some((listedEmail) => listedEmail.trim().toLowerCase() === email)
  const stillListed = listed
    ? `\nNote: ${email} is also in TANDEM_ADMIN_EMAILS; remove it there too, or they stay an administrator.`
    : ''
  if (user.customClaims?.admin !== true) {
    return `${email} does not have the administrator claim; nothing changed.${stillListed}`
  }
  const otherClaims = { ...user.customClaims }
  delete otherClaims.admin
  await auth.setCustomUserClaims(user.uid, otherClaims)
  return `${email} is no longer a Tandem administrator. ${SERVER_SEES_IT}${stillListed}`
}

async function list(auth: Auth): Promise<string> {
  const emails: string[] = []
  let pageToken: string | undefined
  do {
    const page = await auth.listUsers(1000, pageToken)
    for (const user of page.users) {
      if (user.customClaims?.admin === true)
        emails.push(user.email ?? `(no email, uid ${user.uid})`)
    }
    pageToken = page.pageToken
  } while (pageToken)
  if (emails.length === 0) return 'No user has the administrator claim.'
  const count = emails.length === 1 ? '1 administrator' : `${emails.length} administrators`
  return [...emails.sort(), `${count} with the claim.`].join('\n')
}

async function runAdminCommand(argv: string[], env: Env): Promise<string> {
  const [command, ...args] = argv
  if (command === 'help' || command === '--help' || command === '-h') return USAGE
  if (command !== 'grant' && command !== 'revoke' && command !== 'list') {
    throw new CliError(command ? `Unknown command "${command}".\n\n${USAGE}` : USAGE, 2)
  }
  if (command === 'list' && args.length > 0)
    throw new CliError(`list takes no email.\n\n${USAGE}`, 2)
  const email = command === 'list' ? '' : emailArgument(command, args)
  const target = adminTarget(env)
  const auth = await connect(target)
  const where =
    target.kind === 'emulator'
      ? `Firebase Auth emulator at ${target.host}, project ${target.projectId}`
      : `Firebase project ${target.projectId}`
  try {
    if (command === 'grant') return `${where}:\n${await grant(auth, email)}`
    if (command === 'revoke') return `${where}:\n${await revoke(auth, email, env)}`
    return `${where}:\n${await list(auth)}`
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(`Firebase refused or could not be reached: ${(error as Error).message}`)
  }
}

runCommand(runAdminCommand(process.argv.slice(2), process.env))
