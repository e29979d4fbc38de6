import { useState } from 'react'
import { Alert, Button, Group, List, Select, Stack, Text, TextInput } from '@mantine/core'
import { SANDBOX_CHOICES, type SandboxActionInput } from '@shared/contract'
import { PageHeading } from '@renderer/app/PageHeading'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'

/**
 * /main/sandbox (sandbox builds only, README "The first hour"): acts as the sandbox's customer,
 * creators, brands and the creators' payment app, through the emulators' own APIs (POST
 * /admin-sandbox-action), so that Tandem hears of each as it would of the real thing. A server not
 * in sandbox mode refuses every action, saying so.
 */

type Action = SandboxActionInput['action']

const ACTIONS: { value: Action; label: string; who: string }[] = [
  {
    value: 'order',
    label: 'Place and pay an order',
    who: 'A customer orders on a creator store and pays through Stripe.',
  },
  {
    value: 'refund',
    label: 'Refund a line',
    who: 'The creator refunds a line in Shopify, and its payment app the customer in Stripe.',
  },
  {
    value: 'cancel',
    label: 'Cancel an order',
    who: 'The creator cancels the order in Shopify, refunding what was left.',
  },
  {
    value: 'data-request',
    label: 'Send a data request',
    who: 'The order’s customer asks the creator’s store for their data; Shopify sends Tandem customers/data_request.',
  },
  {
    value: 'ship',
    label: 'Ship with tracking',
    who: 'The brand ships its order of the creator order.',
  },
  {
    value: 'hold',
    label: 'Hold a shipment',
    who: 'The brand puts its order of the creator order on hold.',
  },
  {
    value: 'reprice',
    label: 'Change a price',
    who: 'The store changes a product’s price in Shopify.',
  },
  { value: 'stock', label: 'Set stock', who: 'The store sets a product’s stock in Shopify.' },
]

const { creators: CREATORS, brands: BRANDS, products: PRODUCTS } = SANDBOX_CHOICES
const WHERE = [
  { value: 'both', label: 'In Shopify and Stripe' },
  { value: 'shopify', label: 'In Shopify only' },
  { value: 'stripe', label: 'In Stripe only' },
]

type Form = Record<string, string>

const number = (text: string | undefined) => (text ? Number(text) : undefined)

/** What the form asks, as the call takes it; the server says what is wrong with it. */
function inputOf(action: Action, form: Form): SandboxActionInput {
  const order = form.order ?? ''
  switch (action) {
    case 'order':
      return {
        action,
        creator: form.creator ?? '',
        items: [{ product: form.product ?? '', quantity: number(form.quantity) ?? 1 }],
      }
    case 'refund':
      return {
        action,
        order,
        line: number(form.line) ?? 0,
        quantity: number(form.quantity),
        only: form.where === 'shopify' || form.where === 'stripe' ? form.where : undefined,
      }
    case 'cancel':
    case 'data-request':
      return { action, order }
    case 'ship':
      return {
        action,
        order,
        brand: form.brand ?? '',
        tracking: form.tracking ?? '',
        carrier: form.carrier || undefined,
      }
    case 'hold':
      return { action, order, brand: form.brand ?? '' }
    case 'reprice':
      return {
        action,
        store: form.store ?? '',
        product: form.product ?? '',
        price: form.price ?? '',
      }
    case 'stock':
      return {
        action,
        store: form.store ?? '',
        product: form.product ?? '',
        count: number(form.count) ?? -1,
      }
  }
}

export default function SandboxPage() {
  const bridge = useBridge()
  const [action, setAction] = useState<Action>('refund')
  const [form, setForm] = useState<Form>({})
  const [done, setDone] = useState<string[]>([])
  const write = useWrite<{ message: string }>({
    success: { title: 'Done in the sandbox', message: 'Tandem hears of it as of the real thing.' },
    failure: (message) => ({ title: 'The sandbox refused', message }),
  })
  // A choice stays chosen when picked again (Mantine's Select would clear it).
  const field = (name: string) => ({
    allowDeselect: false,
    value: form[name] ?? '',
    onChange: (value: string | null) => setForm((before) => ({ ...before, [name]: value ?? '' })),
  })
  const text = (name: string) => {
    const { value, onChange } = field(name)
    return {
      value,
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value),
    }
  }
  const submit = async () => {
    const answer = await write.run(() => bridge.invoke('adminSandboxAction', inputOf(action, form)))
    if (answer) setDone((before) => [answer.message, ...before])
  }
  const chosen = ACTIONS.find((candidate) => candidate.value === action)!
  const orderField = <TextInput label="Creator order" placeholder="1001" {...text('order')} />

  return (
    <>
      <PageHeading>Sandbox</PageHeading>
      <Text c="dimmed" size="sm" mb="md">
        Act as the sandbox&apos;s customer, creators, brands and Stripe. Each action goes through
        the Shopify and Stripe emulators; Tandem hears of it by their webhooks and by reading
        Stripe, as it would of the real thing.
      </Text>
      <Stack maw={560} gap="sm">
        <Select
          label="Action"
          data={ACTIONS}
          value={action}
          allowDeselect={false}
          onChange={(value) => setAction(value as Action)}
        />
        <Text size="sm">{chosen.who}</Text>
        {action === 'order' && (
          <>
            <Select label="Creator store" data={CREATORS} {...field('creator')} />
            <Select label="Product" data={PRODUCTS} {...field('product')} />
            <TextInput label="Quantity" placeholder="1" inputMode="numeric" {...text('quantity')} />
          </>
        )}
        {action === 'refund' && (
          <>
            {orderField}
            <TextInput
              label="Line"
              description="1 for the order's first line"
              inputMode="numeric"
              {...text('line')}
            />
            <TextInput
              label="Quantity"
              description="Empty: all of the line"
              inputMode="numeric"
              {...text('quantity')}
            />
            <Select
              label="Refunded"
              data={WHERE}
              {...field('where')}
              value={form.where ?? 'both'}
            />
          </>
        )}
        {(action === 'cancel' || action === 'data-request') && orderField}
        {(action === 'ship' || action === 'hold') && (
          <>
            {orderField}
            <Select label="Brand store" data={BRANDS} {...field('brand')} />
          </>
        )}
        {action === 'ship' && (
          <>
            <TextInput
              label="Tracking number"
              placeholder="1Z999AA10123456784"
              {...text('tracking')}
            />
            <TextInput label="Carrier" placeholder="UPS" {...text('carrier')} />
          </>
        )}
        {(action === 'reprice' || action === 'stock') && (
          <>
            <Select label="Store" data={[...BRANDS, ...CREATORS]} {...field('store')} />
            <Select label="Product" data={PRODUCTS} {...field('product')} />
          </>
        )}
        {action === 'reprice' && (
          <TextInput
            label="Price (USD)"
            placeholder="72.00"
            inputMode="decimal"
            {...text('price')}
          />
        )}
        {action === 'stock' && (
          <TextInput label="In stock" placeholder="0" inputMode="numeric" {...text('count')} />
        )}
        <RefusalAlert refusal={write.refusal} />
        <Group>
          <Button loading={write.busy} onClick={() => void submit()}>
            {chosen.label}
          </Button>
        </Group>
        {done.length > 0 && (
          <Alert title="Done" color="green">
            <List aria-label="Done in the sandbox" size="sm" spacing="xs">
              {done.map((said, index) => (
                <List.Item key={done.length - index}>
                  {/* Each sentence on its line: one the Shopify side, one the Stripe side. */}
                  {said.split('\n').map((sentence) => (
                    <Text key={sentence} size="sm">
                      {sentence}
                    </Text>
                  ))}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
    </>
  )
}
