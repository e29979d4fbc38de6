import { useCallback, useState, type FormEvent } from 'react'
import { Box, Button, Group, NumberInput, Stack, Text } from '@mantine/core'
import { LATE_AFTER_DAYS, LateAfterDays, type ShippingPolicy } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { brokenRules } from '@renderer/lib/format'
import { useRemote } from '@renderer/lib/useRemote'
import { useWrite } from '@renderer/lib/useWrite'

/**
 * The marketplace's shipping policy: how many days after its transfer a brand order may take to
 * ship in full before it is late. `onSaved` hears each new policy: the late flags follow it.
 */
export function ShippingPolicySection({ onSaved }: { onSaved: () => void }) {
  const bridge = useBridge()
  const load = useCallback(() => bridge.invoke('adminShippingPolicy'), [bridge])
  const { remote, retry, update } = useRemote(load)

  return (
    <Box mb="md">
      {remote.status === 'loading' && <Text c="dimmed">Loading...</Text>}
      {remote.status === 'failed' && <LoadFailure message={remote.message} onRetry={retry} />}
      {remote.status === 'ready' && (
        <PolicyForm
          // A fresh form on the saved policy, so that Save waits for the next change.
          key={remote.value.lateAfterDays}
          policy={remote.value}
          onSaved={(policy) => {
            update(() => policy)
            onSaved()
          }}
        />
      )}
    </Box>
  )
}

interface PolicyFormProps {
  policy: ShippingPolicy
  onSaved: (policy: ShippingPolicy) => void
}

function PolicyForm({ policy, onSaved }: PolicyFormProps) {
  const bridge = useBridge()
  const [days, setDays] = useState<number | string>(policy.lateAfterDays)
  // Why the days typed cannot be the policy, by the contract's own rule; shown once Save is pressed.
  const [invalid, setInvalid] = useState<string | null>(null)
  const write = useWrite({
    success: { title: 'Success', message: 'Shipping policy set successfully.' },
    failure: { title: 'Failed', message: 'Shipping policy failed to set.' },
  })

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy) return
    const parsed = LateAfterDays.safeParse(days)
    if (!parsed.success) {
      setInvalid(brokenRules(parsed.error))
      return
    }
    const saved = await write.run(() =>
      bridge.invoke('adminSetShippingPolicy', { lateAfterDays: parsed.data }),
    )
    if (saved) onSaved(saved)
  }

  return (
    <form aria-label="Shipping policy" onSubmit={(event) => void save(event)} noValidate>
      <Stack gap="sm">
        <NumberInput
          label="Late after (days)"
          description="A brand order not shipped in full this many days after its transfer is late."
          value={days}
          onChange={(value) => {
            setDays(value)
            setInvalid(null)
            write.clearRefusal()
          }}
          error={invalid}
          min={LATE_AFTER_DAYS.min}
          max={LATE_AFTER_DAYS.max}
          clampBehavior="none"
          allowNegative={false}
          allowDecimal={false}
          // Save beside the field itself, level with it whatever the label, description or error.
          inputContainer={(field) => (
            <Group gap="sm" wrap="nowrap">
              <Box w={120}>{field}</Box>
              <Button
                type="submit"
                variant="default"
                disabled={days === policy.lateAfterDays || days === ''}
                loading={write.busy}
              >
                Save
              </Button>
            </Group>
          )}
        />
        <RefusalAlert refusal={write.refusal} />
      </Stack>
    </form>
  )
}
