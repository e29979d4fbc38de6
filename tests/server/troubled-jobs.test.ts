import { afterEach, expect, it } from 'vitest'
import {
  startListeningServer,
  type ServerOptions,
  type ServerUnderTest,
} from './support/server-under-test'
import { failingUninstall, uninstallFailure } from './support/failing-job'

// The Jobs view's calls: the jobs in trouble with their errors, and an administrator's retry of a
// dead one, audited. A real job fails: an app/uninstalled delivery of a connected shop, whose job
// asks Shopify whether the app is still installed while Shopify answers 500 every time.

const MAYA = 'maya-makes.myshopify.com'

let server: ServerUnderTest
afterEach(() => server.close())

const eventually = { timeout: 30_000, interval: 100 }

const troubledJobs = async () => {
  const answer = await server.app.inject({ url: '/admin-troubled-jobs', headers: server.asAdmin })
  expect(answer.statusCode).toBe(200)
  return (answer.json() as { jobs: unknown[] }).jobs
}

const retry = (id: unknown) =>
  server.app.inject({
    method: 'POST',
    url: '/admin-retry-job',
    headers: server.asAdmin,
    payload: { id },
  })

/** A server whose job for Maya's uninstall fails at every run. */
async function failingJob(jobRetries: ServerOptions['jobRetries']) {
  server = await startListeningServer({ jobRetries })
  await failingUninstall(server, MAYA)
}

/** The lines the background work logged when the job ran out of retries. */
const deathsLogged = () =>
  server.jobLog.filter((line) => line.message === 'a shopify-webhook job failed: it is dead')

it('lists a job that always fails, dead with its message, and runs it once more when retried, audited', async () => {
  await failingJob({ limit: 1 })
  await expect.poll(troubledJobs, eventually).toMatchObject([{ state: 'DEAD' }])
  const [dead] = (await troubledJobs()) as { id: string; errorMessage: string }[]
  // What the job is about, never the delivery's body.
  expect(dead).toEqual({
    id: expect.any(String),
    kind: 'shopify-webhook',
    state: 'DEAD',
    about: { shop: MAYA, topic: 'app/uninstalled' },
    attempts: 2,
    errorMessage: uninstallFailure(MAYA),
    at: expect.any(String),
  })
  expect(deathsLogged()).toHaveLength(1)
  expect(deathsLogged()[0]!.details.err).toMatchObject({ message: dead!.errorMessage })

  const retried = await retry(dead!.id)
  expect(retried.statusCode).toBe(200)
  expect(retried.json()).toEqual({ id: dead!.id, kind: 'shopify-webhook' })
  // One more run, which fails as the others did: dead again, with its message.
  await expect.poll(() => deathsLogged().length, eventually).toBe(2)
  await expect
    .poll(troubledJobs, eventually)
    .toMatchObject([{ id: dead!.id, state: 'DEAD', errorMessage: dead!.errorMessage }])

  const log = await server.app.inject({ url: '/admin-audit-log', headers: server.asAdmin })
  expect(log.json().entries).toContainEqual({
    at: expect.any(String),
    actorEmail: 'claim-admin@tandem.test',
    action: 'job.retry',
    target: dead!.id,
    details: { job: 'shopify-webhook', attempts: 2, message: dead!.errorMessage },
  })
})

it('refuses to retry a job that is not dead, one that is not in trouble, and an empty id', async () => {
  // Its one retry an hour after its first failure: retrying until then.
  await failingJob({ limit: 1, delaySeconds: 3_600 })
  await expect.poll(troubledJobs, eventually).toMatchObject([{ state: 'RETRYING' }])
  const [retrying] = (await troubledJobs()) as { id: string; at: string }[]

  const early = await retry(retrying!.id)
  expect(early.statusCode).toBe(409)
  expect(early.json().message).toBe(
    `Job ${retrying!.id} is not dead: it runs again by itself at ${retrying!.at}. Retry it once it is dead.`,
  )

  const unknown = await retry('no-such-job')
  expect(unknown.statusCode).toBe(404)
  expect(unknown.json().message).toBe(
    'No failed job has the id no-such-job: it may have run since the list was read. Refresh the jobs.',
  )

  const empty = await retry('  ')
  expect(empty.statusCode).toBe(400)
  expect(empty.json().message).toBe('id is required')

  // Nothing was retried, and nothing audited.
  expect(await troubledJobs()).toMatchObject([{ id: retrying!.id, state: 'RETRYING' }])
  const log = await server.app.inject({ url: '/admin-audit-log', headers: server.asAdmin })
  expect(log.json().entries).not.toContainEqual(expect.objectContaining({ action: 'job.retry' }))
})
