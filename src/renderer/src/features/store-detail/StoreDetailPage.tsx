import { Anchor, Group, Stack, Text, Title } from '@mantine/core'
import { StoreTypeBadge } from '@renderer/features/stores/StoreTypeBadge'
import { IconArrowLeft } from '@tabler/icons-react'
import { Link, useParams, useSearchParams } from 'react-router'
import { storeName } from '@renderer/lib/format'
import { BrandCommission } from './BrandCommission'
import { CreatorRates } from './CreatorRates'
import { PayoutsCard } from './PayoutsCard'

/**
 * /main/stores/{store}?type=…: a brand's default commission and payout account (type BRAND),
 * otherwise a creator's unique commission rates (docs/product-rules.md "The console's screens",
 * docs/integrations.md "Stripe"). The type comes from the link the list opened, as the screens'
 * rules say.
 */
export default function StoreDetailPage() {
  const shop = useParams().store ?? ''
  const isBrand = useSearchParams()[0].get('type') === 'BRAND'

  return (
    <Stack gap="lg">
      <div>
        {/* A link, not history: the list keeps its own tab and selection however one comes. */}
        <Anchor component={Link} to="/main/stores" size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} stroke={1.75} />
            Back to stores
          </Group>
        </Anchor>
        <Title order={1} size="h2" mt="sm">
          {storeName(shop)}
        </Title>
        <Group gap="sm" mt={4}>
          <Text c="dimmed">{shop}</Text>
          <StoreTypeBadge shopType={isBrand ? 'BRAND' : 'CREATOR'} />
        </Group>
      </div>
      {/* Keyed by shop: another store's page starts from its own answers, not this one's. */}
      {isBrand ? (
        <Stack key={shop}>
          <BrandCommission shop={shop} />
          <PayoutsCard shop={shop} />
        </Stack>
      ) : (
        <CreatorRates key={shop} shop={shop} />
      )}
    </Stack>
  )
}
