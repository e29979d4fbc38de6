import { useCallback, useState, type FormEvent } from 'react'
import { Box, Button, Group, Stack, Text } from '@mantine/core'
import { LATE_AFTER_DAYS_RULE, type ShippingPolicy } from '@shared/contract'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { NumberField, readNumberField } from '@renderer/app/NumberField'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
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
  const [text, setText] = useState(String(policy.lateAfterDays))
  const days = readNumberField(LATE_AFTER_DAYS_RULE, text).value
  const write = useWrite({
    success: { title: 'Success', message: 'Shipping policy set successfully.' },
    failure: { title: 'Failed', message: 'Shipping policy failed to set.' },
  })

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy || days === null) return
    const saved = await write.run(() =>
      bridge.invoke('adminSetShippingPolicy', { lateAfterDays: days }),
    )
    if (saved) onSaved(saved)
  }

  return (
    <form aria-label="Shipping policy" onSubmit={(event) => void save(event)} noValidate>
      <Stack gap="sm">
        <NumberField
          rule={LATE_AFTER_DAYS_RULE}
          label="Late after (days)"
          description="A brand order not shipped in full this many days after its transfer is late."
          value={text}
          onChange={(value) => {
            setText(value)
            write.clearRefusal()
          }}
          // Save beside the field itself, level with it whatever the label, description or error.
          inputContainer={(field) => (
            <Group gap="sm" wrap="nowrap">
              <Box w={120}>{field}</Box>
              <Button
                type="submit"
                variant="default"
                disabled={days === policy.lateAfterDays || days === null}
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
