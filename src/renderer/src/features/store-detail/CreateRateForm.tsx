import { useCallback, useId, useMemo, useState, type FormEvent } from 'react'
import { Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core'
import { useBridge } from '@renderer/lib/bridge'
import { storeOption } from '@renderer/lib/format'
import { useWrite } from '@renderer/lib/useWrite'
import { LoadFailure } from '@renderer/app/LoadFailure'
import { RateInput } from './RateInput'
import { rateError, readRate, type RateInputValue } from './rates'
import { useRemote } from '@renderer/lib/useRemote'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

/**
 * With thousands of brands, rendering every option would stall the dropdown; typing narrows the
 * search to the one wanted.
 */
const BRAND_OPTIONS_SHOWN = 100

interface CreateRateFormProps {
  creatorShop: string
  onCreated: () => void
}

/** A unique rate for this creator with a brand; the server replaces the pair's rate if it has one. */
export function CreateRateForm({ creatorShop, onCreated }: CreateRateFormProps) {
  const bridge = useBridge()
  const loadStores = useCallback(() => bridge.invoke('adminAllStores'), [bridge])
  const { remote: stores, retry } = useRemote(loadStores)
  const [brand, setBrand] = useState<string | null>(null)
  const [rateInput, setRateInput] = useState<RateInputValue>('')
  const headingId = useId()
  // Its refusal is the server's sentence when it refused the rate (e.g. with the brand's tandem
  // rate over 100).
  const write = useWrite({
    success: { title: 'Success', message: 'Commission rate created successfully.' },
    failure: { title: 'Failed', message: 'Commission rate failed to create.' },
  })

  const brandOptions = useMemo(
    () =>
      stores.status === 'ready'
        ? stores.value.filter((store) => store.shopType === 'BRAND').map(storeOption)
        : [],
    [stores],
  )
  const rate = readRate(rateInput)
  const error = rateError(rate)

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (brand === null || rate === null || error !== null) return
    const created = await write.run(() =>
      bridge.invoke('adminCreateUniqueCommissionRate', {
        uniqueCommissionRate: {
          brandStoreShop: brand,
          creatorStoreShop: creatorShop,
          commissionRate: rate,
        },
      }),
    )
    if (!created) return
    setBrand(null)
    setRateInput('')
    onCreated()
  }

  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="md" id={headingId}>
        New unique rate
      </Title>
      <form aria-labelledby={headingId} onSubmit={(event) => void create(event)}>
        <Stack>
          <Select
            label="Brand"
            placeholder="Select brand..."
            nothingFoundMessage="Not found..."
            searchable
            limit={BRAND_OPTIONS_SHOWN}
            data={brandOptions}
            value={brand}
            onChange={(value) => {
              setBrand(value)
              write.clearRefusal()
            }}
            disabled={stores.status !== 'ready'}
            renderOption={({ option }) => (
              <div>
                <Text size="sm">{option.label}</Text>
                <Text size="xs" c="dimmed">
                  {option.value}
                </Text>
              </div>
            )}
          />
          {stores.status === 'failed' && <LoadFailure message={stores.message} onRetry={retry} />}
          <RateInput
            label="Commission rate"
            value={rateInput}
            onChange={(value) => {
              setRateInput(value)
              write.clearRefusal()
            }}
            error={error}
          />
          <RefusalAlert refusal={write.refusal} />
          <Group justify="flex-end">
            <Button
              type="submit"
              disabled={brand === null || rate === null || error !== null}
              loading={write.busy}
            >
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
