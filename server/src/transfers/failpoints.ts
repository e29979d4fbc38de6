// Failpoints: where the crash harness stops or kills the server between two lines that talk to
// the outside. TANDEM_FAILPOINTS="createOrder:after-call=kill,markOrderAsPaid:before-call=pause"
// arms them; unset (always, outside tests), every failpoint resolves at once. Each fires once.
//   kill   SIGKILL to this very process: no handler, no flush, as `kill -9` does.
//   pause  stop there until the process gets SIGUSR2 (the harness meanwhile lets another
//          request take the lease over).

const ACTIONS = ['kill', 'pause'] as const
type Action = (typeof ACTIONS)[number]

export function failpointsFrom(spec: string | undefined): (name: string) => Promise<void> {
  const armed = new Map<string, Action>()
  for (const entry of (spec ?? '').split(',').filter((part) => part.trim())) {
    const [name, action] = entry.trim().split('=')
    if (!name || !ACTIONS.includes(action as Action)) {
      throw new Error(`TANDEM_FAILPOINTS: "${entry}" is not name=kill or name=pause`)
    }
    armed.set(name, action as Action)
  }
  return async (name) => {
    const action = armed.get(name)
    if (!action) return
    armed.delete(name)
    // The harness reads this line to know where the server stopped.
    process.stdout.write(`failpoint ${name}: ${action}\n`)
    if (action === 'kill') process.kill(process.pid, 'SIGKILL')
    await new Promise<void>((resume) => process.once('SIGUSR2', () => resume()))
  }
}
