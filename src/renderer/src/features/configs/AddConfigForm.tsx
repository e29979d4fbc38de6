import { useId, useState, type FormEvent } from 'react'
import {
  Button,
  Card,
  Group,
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { APP_CREDENTIAL_MAX, type ShopType } from '@shared/contract'
import type { AppConfigView } from '@shared/ipc'
import { useBridge } from '@renderer/lib/bridge'
import { showToast } from '@renderer/lib/toast'
import { useWrite } from '@renderer/lib/useWrite'
import {
  completeConfig,
  configFieldErrors,
  type ConfigField,
  type ConfigFormValues,
} from './config-form'
import { RefusalAlert } from '@renderer/app/RefusalAlert'

interface AddConfigFormProps {
  /** Held by the page, whose URL card follows the chosen shop type. */
  values: ConfigFormValues
  onChange: (values: ConfigFormValues) => void
  onCancel: () => void
  onCreated: (config: AppConfigView) => void
}

/** The add form of /main/configs (docs/product-rules.md): a new app config for one shop. */
export function AddConfigForm({ values, onChange, onCancel, onCreated }: AddConfigFormProps) {
  const bridge = useBridge()
  const headingId = useId()
  const descriptionId = useId()
  // Its refusal is the server's sentence when it refused (a duplicate shop, a malformed domain);
  // the values stay.
  const write = useWrite({
    success: { title: 'Success', message: 'App config created successfully' },
    failure: { title: 'Error', message: 'Failed to create app config' },
  })
  // A field's error shows once the person leaves it (or presses Create), then follows each key
  // they type, so that half a domain is not called wrong while it is being typed.
  const [left, setLeft] = useState<ReadonlySet<ConfigField>>(new Set())
  const leave = (field: ConfigField) => setLeft((fields) => new Set(fields).add(field))
  const errors = configFieldErrors(values)
  const shown = (field: ConfigField) => (left.has(field) ? errors[field] : null)
  const set = (field: ConfigField, value: string) => {
    onChange({ ...values, [field]: value })
    write.clearRefusal()
  }

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (write.busy) return
    const body = completeConfig(values)
    if (!body) {
      showToast({
        tone: 'error',
        title: 'Error',
        message: 'Missing some fields. All fields are required',
      })
      return
    }
    if (Object.values(errors).some((error) => error !== null)) {
      setLeft(new Set(['shop', 'clientId', 'clientSecret']))
      return
    }
    const config = await write.run(() => bridge.invoke('createAppConfig', body))
    if (config) onCreated(config)
  }

  return (
    <Card withBorder padding="lg" maw={640}>
      <Title order={2} size="h4" id={headingId}>
        Shopify App Configuration
      </Title>
      <Text size="sm" c="dimmed" mb="md" id={descriptionId}>
        Add a custom app config to connect to a shopify store
      </Text>
      <form
        aria-labelledby={headingId}
        aria-describedby={descriptionId}
        onSubmit={(event) => void create(event)}
      >
        <Stack>
          <TextInput
            label="Shop"
            placeholder="your-store.myshopify.com"
            description="Its domain, or its URL as the Stores list shows it"
            value={values.shop}
            onChange={(event) => set('shop', event.currentTarget.value)}
            onBlur={() => leave('shop')}
            error={shown('shop')}
            autoComplete="off"
            spellCheck={false}
          />
          {/* The contract's bound: a paste of anything longer is cut rather than sent. */}
          <TextInput
            label="Client ID"
            maxLength={APP_CREDENTIAL_MAX}
            value={values.clientId}
            onChange={(event) => set('clientId', event.currentTarget.value)}
            onBlur={() => leave('clientId')}
            error={shown('clientId')}
          />
          <PasswordInput
            label="Client Secret"
            maxLength={APP_CREDENTIAL_MAX}
            value={values.clientSecret}
            onChange={(event) => set('clientSecret', event.currentTarget.value)}
            onBlur={() => leave('clientSecret')}
            error={shown('clientSecret')}
          />
          <Radio.Group<ShopType>
            label="Shop type"
            value={values.shopType}
            onChange={(shopType) => onChange({ ...values, shopType })}
          >
            <Group mt="xs">
              <Radio value="BRAND" label="Brand" />
              <Radio value="CREATOR" label="Creator" />
            </Group>
          </Radio.Group>
          <RefusalAlert refusal={write.refusal} />
          <Group justify="flex-end">
            <Button variant="default" disabled={write.busy} onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={write.busy} disabled={completeConfig(values) === null}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
