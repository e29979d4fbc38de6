import { useCallback, useId, useState, type FormEvent } from 'react'
import { Badge, Button, Card, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import {
  PaymentAccountId,
  type OwedAmount,
  type StorePaymentAccount,
} from '@shared/contract/entities'
import { useBridge } from '@renderer/lib/bridge'
import { brokenRules, plural } from '@renderer/lib/format'
import { Fields } from '@renderer/app/Fields'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useRemote } from '@renderer/lib/useRemote'
import { useWrite } from '@renderer/lib/useWrite'

/**
 * A store's page, brand or creator: the Stripe connected account it is paid to (a brand its
 * transfers, a creator its commissions; docs/integrations.md "Stripe"), what Stripe says of it,
 * what commission a creator is still owed, and a form to set the account.
 */
export function PayoutsCard({ shop }: { shop: string }) {
  const bridge = useBridge()
  const load = useCallback(
    () => bridge.invoke('adminStorePaymentAccount', { shop }),
    [bridge, shop],
  )
  const { remote, retry, update } = useRemote(load)
  const headingId = useId()

  return (
    <Card withBorder padding="lg" maw={480} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" mb="md" id={headingId}>
        Payouts
      </Title>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <Stack>
          <AccountSummary account={remote.value} />
          <Divider />
          <PaymentAccountForm
            shop={shop}
            headingId={headingId}
            // What the server stored, and what Stripe says of it, as a reload would show.
            onSaved={(account) => update(() => account)}
          />
        </Stack>
      )}
    </Card>
  )
}

/** The account as the server answered it, and below it what a creator is still owed. */
function AccountSummary({ account }: { account: StorePaymentAccount }) {
  return (
    <Stack gap="sm">
      <AccountState account={account} />
      {/* Owed shows with or without an account: without one is how a creator comes to be owed. */}
      <CommissionOwed owed={account.commissionOwed} reason={account.commissionWaitingReason} />
    </Stack>
  )
}

/** No account, one Stripe does not know, or Stripe's view of it. */
function AccountState({ account }: { account: StorePaymentAccount }) {
  if (account.accountId === null) return <Text c="dimmed">No payout account set</Text>

  const id = (
    <Text component="span" ff="monospace" size="sm">
      {account.accountId}
    </Text>
  )
  // Stripe answered nothing for the id: it knows neither its email nor its transfers.
  if (account.transfersActive === null) {
    return (
      <Stack gap="sm">
        <Fields cols={1} fields={[['Account', id]]} />
        <Text size="sm" c="red">
          Stripe does not know this account
        </Text>
      </Stack>
    )
  }

  const active = account.transfersActive
  return (
    <Stack gap="sm">
      <Fields
        cols={1}
        fields={[
          ['Account', id],
          [
            'Email',
            account.email ?? (
              <Text span c="red" inherit>
                No email
              </Text>
            ),
          ],
          [
            'Transfers',
            <Badge variant="light" color={active ? 'green' : 'red'}>
              {active ? 'Transfers active' : 'Transfers inactive'}
            </Badge>,
          ],
        ]}
      />
      {/* Processing checks both per store (docs/integrations.md "Stripe"): say so first. */}
      {!active && (
        <Text size="sm" c="red">
          Transfers to this store will fail until Stripe activates transfers on this account.
        </Text>
      )}
      {account.email === null && (
        <Text size="sm" c="red">
          Transfers to this store will fail until this account has an email in Stripe.
        </Text>
      )}
    </Stack>
  )
}

/**
 * A creator's commissions not paid yet, one line per currency, and why the oldest waits; nothing
 * when none is owed (always, for a brand).
 */
function CommissionOwed({ owed, reason }: { owed: OwedAmount[]; reason: string | null }) {
  if (owed.length === 0) return null
  const lines = owed.map(({ currency, amount, orders }) => (
    <div key={currency}>
      {amount} {currency} on {plural(orders, 'order', 'orders')}
    </div>
  ))
  return (
    <Stack gap={4}>
      <Fields cols={1} fields={[['Commission owed', lines]]} />
      {reason !== null && (
        <Text size="sm" c="red">
          Waiting: {reason}
        </Text>
      )}
    </Stack>
  )
}

interface PaymentAccountFormProps {
  shop: string
  /** The card's heading, which names the form. */
  headingId: string
  onSaved: (account: StorePaymentAccount) => void
}

function PaymentAccountForm({ shop, headingId, onSaved }: PaymentAccountFormProps) {
  const bridge = useBridge()
  const [input, setInput] = useState('')
  // Why the id typed cannot be one, by the contract's own rule; shown once Save is pressed.
  const [invalid, setInvalid] = useState<string | null>(null)
  // Its refusal is the server's sentence when it refused the account (e.g. Stripe does not know it).
  const write = useWrite({
    success: { title: 'Success', message: 'Payout account set successfully.' },
    failure: { title: 'Failed', message: 'Payout account failed to set.' },
  })

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy) return
    const parsed = PaymentAccountId.safeParse(input)
    if (!parsed.success) {
      setInvalid(brokenRules(parsed.error))
      return
    }
    const account = await write.run(() =>
      bridge.invoke('adminSetStorePaymentAccount', { shop, accountId: parsed.data }),
    )
    if (!account) return
    onSaved(account)
    setInput('')
  }

  return (
    <form aria-labelledby={headingId} onSubmit={(event) => void save(event)} noValidate>
      <Stack>
        <TextInput
          label="Stripe account ID"
          placeholder="acct_…"
          value={input}
          onChange={(event) => {
            setInput(event.currentTarget.value)
            setInvalid(null)
            write.clearRefusal()
          }}
          error={invalid}
          autoComplete="off"
          spellCheck={false}
        />
        <RefusalAlert refusal={write.refusal} />
        <Group justify="flex-end">
          <Button type="submit" disabled={input.trim() === ''} loading={write.busy}>
            Save account
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
