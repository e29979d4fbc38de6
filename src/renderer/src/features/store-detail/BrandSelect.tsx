import { Select, type SelectProps } from '@mantine/core'

/**
 * With thousands of brands, rendering every option would stall the dropdown; typing narrows the
 * search to the one wanted.
 */
const BRAND_OPTIONS_SHOWN = 100

type BrandSelectProps = Omit<
  SelectProps,
  'label' | 'placeholder' | 'nothingFoundMessage' | 'searchable' | 'limit'
>

/** A brand, found by typing part of its name: its options are brand stores (storeOption). */
export function BrandSelect(props: BrandSelectProps) {
  return (
    <Select
      label="Brand"
      placeholder="Select brand..."
      nothingFoundMessage="Not found..."
      searchable
      limit={BRAND_OPTIONS_SHOWN}
      {...props}
    />
  )
}
