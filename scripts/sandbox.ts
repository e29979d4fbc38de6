import { parseArgs } from 'node:util'
import { SANDBOX_STRIPE_SECRET_KEY } from '../emulators/stripe/emulator'
import { CliError, runCommand, type Env } from '../server/src/cli/command-line'
import { Refusal } from '../server/src/domain/errors'
import {
  runSandboxAction,
  SANDBOX_PRODUCTS,
  type SandboxAction,
  type SandboxEmulators,
} from '../server/src/sandbox/sandbox-controls'

// `npm run sandbox -- <command>`: the local stack's customer, creators, brands and payment app,
// for seeing what Tandem does after the sale (server/src/sandbox/sandbox-controls.ts does each
// through the emulators' own APIs). Refused outside sandbox mode.

const USAGE = `Usage: npm run sandbox -- <command>
  order <creator> <product>[:quantity]...    a customer orders and pays through Stripe
                                             (e.g. order maya-makes linen-overshirt:2)
  refund <order> --line N [--quantity Q] [--shopify-only | --stripe-only]
                                             the creator refunds line N (1 for the first) in
                                             Shopify, and its payment app the customer in Stripe
  cancel <order>                             the creator cancels the order, refunding it all
  data-request <order>                       the order's customer asks the creator's store for
                                             their data: Shopify sends Tandem
                                             customers/data_request
  ship <order> --brand <brand> --tracking <number> [--carrier <name>]
                                             the brand ships its order of the creator order
  hold <order> --brand <brand>               the brand holds its order of the creator order
  reprice <store> <product> <price>          the store changes the product's price
  stock <store> <product> <count>            the store sets the product's stock

<order> is a creator order's number (1001); <store>, <creator> and <brand> are sandbox stores
(maya-makes, northwind-apparel); <product> is one of ${SANDBOX_PRODUCTS.join(', ')}.
Against the local stack's emulators: TANDEM_SHOPIFY_ENDPOINT (else 127.0.0.1:TANDEM_SHOPIFY_PORT
or 8788) and TANDEM_STRIPE_ENDPOINT (else 127.0.0.1:TANDEM_STRIPE_PORT or 8789).`

const local = (port: string | undefined, fallback: number) =>
  `http://127.0.0.1:${Number(port || fallback)}`

function sandboxOnly(env: Env): SandboxEmulators {
  if ((env.TANDEM_MODE || 'sandbox') !== 'sandbox')
    throw new CliError(
      `npm run sandbox acts on the sandbox's emulators only; TANDEM_MODE is "${env.TANDEM_MODE}". ` +
        'Run it beside the local stack (npm run start:web), where TANDEM_MODE is unset.',
    )
  const key = env.STRIPE_SECRET_KEY || SANDBOX_STRIPE_SECRET_KEY
  if (!key.startsWith('sk_test_'))
    throw new CliError(
      'npm run sandbox never uses a live Stripe key: STRIPE_SECRET_KEY must start with sk_test_.',
    )
  return {
    shopify: env.TANDEM_SHOPIFY_ENDPOINT || local(env.TANDEM_SHOPIFY_PORT, 8788),
    stripe: env.TANDEM_STRIPE_ENDPOINT || local(env.TANDEM_STRIPE_PORT, 8789),
    key,
  }
}

const count = (text: string | undefined) => (text === undefined ? undefined : Number(text))

/** The command line as the action it asks for. */
function actionOf(name: string, args: string[]): SandboxAction {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      line: { type: 'string' },
      quantity: { type: 'string' },
      'shopify-only': { type: 'boolean' },
      'stripe-only': { type: 'boolean' },
      brand: { type: 'string' },
      tracking: { type: 'string' },
      carrier: { type: 'string' },
    },
  })
  const [first = '', second = '', third = ''] = positionals
  switch (name) {
    case 'order':
      return {
        action: 'order',
        creator: first,
        items: positionals.slice(1).map((item) => {
          const [product = '', quantity = '1'] = item.split(':')
          return { product, quantity: Number(quantity) }
        }),
      }
    case 'refund':
      if (values['shopify-only'] && values['stripe-only'])
        throw new CliError('--shopify-only and --stripe-only exclude each other: give one.', 2)
      return {
        action: 'refund',
        order: first,
        line: Number(values.line),
        quantity: count(values.quantity),
        only: values['shopify-only'] ? 'shopify' : values['stripe-only'] ? 'stripe' : undefined,
      }
    case 'cancel':
      return { action: 'cancel', order: first }
    case 'data-request':
      return { action: 'data-request', order: first }
    case 'ship':
      return {
        action: 'ship',
        order: first,
        brand: values.brand ?? '',
        tracking: values.tracking ?? '',
        carrier: values.carrier,
      }
    case 'hold':
      return { action: 'hold', order: first, brand: values.brand ?? '' }
    case 'reprice':
      return { action: 'reprice', store: first, product: second, price: third }
    case 'stock':
      return { action: 'stock', store: first, product: second, count: Number(third) }
    default:
      throw new CliError(USAGE, 2)
  }
}

async function main([name = '', ...args]: string[], env: Env): Promise<string> {
  let action: SandboxAction
  try {
    action = actionOf(name, args)
  } catch (error) {
    // parseArgs' own refusals (an unknown option) are the command line's.
    if (error instanceof TypeError) throw new CliError(`${error.message}\n\n${USAGE}`, 2)
    throw error
  }
  try {
    return await runSandboxAction(sandboxOnly(env), action)
  } catch (error) {
    if (error instanceof Refusal)
      throw new CliError(error.message, error.kind === 'invalid_input' ? 2 : 1)
    throw error
  }
}

runCommand(main(process.argv.slice(2), process.env))
