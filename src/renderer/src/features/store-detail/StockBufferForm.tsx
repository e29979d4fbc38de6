import { useState, type FormEvent } from 'react'
import { Button, Group, Stack } from '@mantine/core'
import { STOCK_BUFFER_RULE } from '@shared/contract'
import { NumberField, readNumberField } from '@renderer/app/NumberField'
import { RefusalAlert } from '@renderer/app/RefusalAlert'
import { useBridge } from '@renderer/lib/bridge'
import { useWrite } from '@renderer/lib/useWrite'

interface StockBufferFormProps {
  shop: string
  /** The buffer the server has (0 unless one was set); null would be none at all. */
  current: number | null
  onSaved: (stockBuffer: number) => void
}

/**
 * The units of each variant a brand keeps back from creator stores: they are offered its stock less
 * this many, so that the brand's own store does not sell out under them.
 */
export function StockBufferForm({ shop, current, onSaved }: StockBufferFormProps) {
  const bridge = useBridge()
  const [text, setText] = useState(String(current ?? ''))
  const units = readNumberField(STOCK_BUFFER_RULE, text).value
  const write = useWrite({
    success: { title: 'Success', message: 'Stock buffer saved.' },
    failure: (reason) => ({ title: 'Failed to set stock buffer', message: reason }),
  })

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy || units === null) return
    const saved = await write.run(() =>
      bridge.invoke('adminSetStockBuffer', { brandStoreShop: shop, units }),
    )
    if (saved) onSaved(saved.stockBuffer)
  }

  return (
    <form onSubmit={(event) => void save(event)} aria-label="Stock buffer" noValidate>
      <Stack gap="sm" maw={480}>
        <NumberField
          rule={STOCK_BUFFER_RULE}
          label="Units kept back from creator stores"
          description="Creator stores are offered each variant's stock less this many units."
          value={text}
          onChange={(value) => {
            setText(value)
            write.clearRefusal()
          }}
        />
        <RefusalAlert refusal={write.refusal} mb={0} />
        <Group justify="flex-end">
          <Button type="submit" disabled={units === null} loading={write.busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
