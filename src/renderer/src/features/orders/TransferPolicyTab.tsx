import { useCallback, useId, useState, type FormEvent } from 'react'
import { Button, Card, Divider, Group, Radio, Stack, Text, Title } from '@mantine/core'
import {
  HOLD_MINUTES_MAX,
  HOLD_MINUTES_RULE,
  type TransferMode,
  type TransferPolicy,
} from '@shared/contract'
import { NumberField, readNumberField } from '@renderer/app/NumberField'
import { useBridge } from '@renderer/lib/bridge'
import { formatDateTime, plural } from '@renderer/lib/format'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useRemote } from '@renderer/lib/useRemote'
import { useWrite } from '@renderer/lib/useWrite'

/** A mode's name, on the form and in the activity log. */
export const TRANSFER_MODE_LABELS: Readonly<Record<TransferMode, string>> = {
  AUTOMATIC: 'Automatic',
  MANUAL: 'Manual',
}

/**
 * The Transfer policy tab: whether paid orders transfer by themselves after a hold or wait for an
 * administrator (docs/product-rules.md "The transfer policy"), and a form to change it.
 */
export function TransferPolicyTab() {
  const bridge = useBridge()
  const load = useCallback(() => bridge.invoke('adminTransferPolicy'), [bridge])
  const { remote, retry, update } = useRemote(load)
  const headingId = useId()

  return (
    <Card withBorder padding="lg" maw={560} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" mb="md" id={headingId}>
        Transfer policy
      </Title>
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <Stack>
          <PolicySummary policy={remote.value} />
          <Divider />
          <PolicyForm
            // A fresh form on the saved policy, so that Save waits for the next change.
            key={JSON.stringify(remote.value)}
            policy={remote.value}
            headingId={headingId}
            onSaved={(policy) => update(() => policy)}
          />
        </Stack>
      )}
    </Card>
  )
}

const holdText = (minutes: number) =>
  minutes === 0
    ? 'as soon as they are paid'
    : `${plural(minutes, 'minute', 'minutes')} after payment`

/** The policy in force, in a sentence, with the orders it leaves to an administrator. */
function PolicySummary({ policy }: { policy: TransferPolicy }) {
  if (policy.mode === 'MANUAL') {
    return <Text>Manual: an administrator processes every paid order.</Text>
  }
  return (
    <Stack gap={4}>
      <Text>Automatic: paid orders transfer by themselves {holdText(policy.holdMinutes)}.</Text>
      <Text size="sm" c="dimmed">
        Orders paid before {formatDateTime(policy.automaticSince)} wait for an administrator.
      </Text>
    </Stack>
  )
}

interface PolicyFormProps {
  policy: TransferPolicy
  /** The card's heading, which names the form. */
  headingId: string
  onSaved: (policy: TransferPolicy) => void
}

function PolicyForm({ policy, headingId, onSaved }: PolicyFormProps) {
  const bridge = useBridge()
  const [mode, setMode] = useState<TransferMode>(policy.mode)
  const [holdText, setHoldText] = useState(String(policy.holdMinutes))
  const hold = readNumberField(HOLD_MINUTES_RULE, holdText).value
  const write = useWrite({
    success: { title: 'Success', message: 'Transfer policy set successfully.' },
    failure: { title: 'Failed', message: 'Transfer policy failed to set.' },
  })
  const unchanged = mode === policy.mode && hold === policy.holdMinutes

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy || hold === null) return
    const saved = await write.run(() =>
      bridge.invoke('adminSetTransferPolicy', { mode, holdMinutes: hold }),
    )
    if (saved) onSaved(saved)
  }

  return (
    <form aria-labelledby={headingId} onSubmit={(event) => void save(event)} noValidate>
      <Stack>
        <Radio.Group<TransferMode>
          label="Mode"
          value={mode}
          onChange={(value) => {
            setMode(value)
            write.clearRefusal()
          }}
        >
          <Stack mt="xs" gap="xs">
            <Radio
              value="AUTOMATIC"
              label={TRANSFER_MODE_LABELS.AUTOMATIC}
              description="Paid orders transfer by themselves once their hold has passed."
            />
            <Radio
              value="MANUAL"
              label={TRANSFER_MODE_LABELS.MANUAL}
              description="An administrator processes each paid order."
            />
          </Stack>
        </Radio.Group>
        <NumberField
          rule={HOLD_MINUTES_RULE}
          label="Hold (minutes)"
          description={`From payment: 0 transfers at once, at most ${HOLD_MINUTES_MAX} (7 days).`}
          value={holdText}
          onChange={(value) => {
            setHoldText(value)
            write.clearRefusal()
          }}
          // The hold is kept while MANUAL, for when it turns AUTOMATIC again.
          disabled={mode === 'MANUAL'}
        />
        <RefusalAlert refusal={write.refusal} />
        <Group justify="flex-end">
          <Button type="submit" disabled={unchanged || hold === null} loading={write.busy}>
            Save policy
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
