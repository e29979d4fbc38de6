import type { Runtime } from './context'
import { parseMinor } from './money'
import { announceProduct, announceStock } from './product-announcements'
import {
  DEFAULT_OPTION,
  gid,
  shopLocation,
  touch,
  type ProductRecord,
  type ShopRecord,
  type VariantRecord,
} from './state'

// productSet: creates a product, or updates the one its identifier names, from one complete
// description. Fields left out stay as they are; a list given (options, files, variants) replaces
// the product's: a variant not in it is deleted, one matched by id or else by its option values
// is kept with its ids. Refusals are Shopify's ProductSetUserErrorCode with the code's own words.

export interface ProductSetInput {
  id?: string | null
  title?: string | null
  descriptionHtml?: string | null
  vendor?: string | null
  handle?: string | null
  status?: ProductRecord['status'] | null
  productOptions?: { name?: string | null; values?: { name?: string | null }[] | null }[] | null
  files?: { originalSource?: string | null; alt?: string | null }[] | null
  variants?: VariantSetInput[] | null
}

interface VariantSetInput {
  id?: string | null
  optionValues: { optionName?: string | null; name?: string | null }[]
  price?: string | number | null
  sku?: string | null
  inventoryPolicy?: VariantRecord['inventoryPolicy'] | null
  inventoryQuantities?: { locationId: string; name: string; quantity: number }[] | null
}

export interface ProductSetIdentifiers {
  id?: string | null
  handle?: string | null
}

export interface ProductSetUserError {
  field: string[]
  message: string
  code: string
}

/** Shopify's limits: three options a product, 2,048 variants by default. */
const MAX_OPTIONS = 3
const MAX_VARIANTS = 2048
const QUANTITY_NAMES = ['available', 'on_hand']

const refusal = (code: string, message: string, ...field: (string | number)[]) => ({
  code,
  message,
  field: field.map(String),
})

const sameValues = (a: { value: string }[], b: { value: string }[]) =>
  a.length === b.length && a.every((selected, i) => selected.value === b[i]?.value)

/** 'Linen Overshirt!' → 'linen-overshirt', as Shopify makes a handle from a title. */
const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** The product the call updates (undefined: it creates one), or why it names none. */
function target(
  shop: ShopRecord,
  input: ProductSetInput,
  identifier: ProductSetIdentifiers | null | undefined,
): { product?: ProductRecord } | ProductSetUserError {
  if (identifier && input.id) {
    const message = 'The id field is not allowed if identifier is provided.'
    return refusal('ID_NOT_ALLOWED', message, 'input', 'id')
  }
  const id = identifier ? identifier.id : input.id
  if (id) {
    const product = shop.products.find((candidate) => candidate.id === id)
    const path = identifier ? 'identifier' : 'input'
    return product
      ? { product }
      : refusal('PRODUCT_DOES_NOT_EXIST', 'Product does not exist', path, 'id')
  }
  if (!identifier) return {}
  if (!identifier.handle) return refusal('INVALID_INPUT', 'Input is not valid.', 'identifier')
  if (input.handle && input.handle !== identifier.handle) {
    const message =
      'The identifier value does not match the value of the corresponding field in the input.'
    return refusal('INPUT_MISMATCH', message, 'input', 'handle')
  }
  // A handle identifies the product to update if there is one, the one to create otherwise.
  return { product: shop.products.find((candidate) => candidate.handle === identifier.handle) }
}

function optionErrors(input: ProductSetInput): ProductSetUserError[] {
  const { productOptions: options, variants } = input
  if (options && !variants)
    return [
      refusal(
        'VARIANTS_INPUT_MISSING',
        'Must specify variants when updating options.',
        'input',
        'variants',
      ),
    ]
  if (variants && !options) {
    const message = 'Must specify product options when updating variants.'
    return [refusal('PRODUCT_OPTIONS_INPUT_MISSING', message, 'input', 'productOptions')]
  }
  if (!options) return []
  if (options.length > MAX_OPTIONS)
    return [refusal('OPTIONS_OVER_LIMIT', 'Options over limit.', 'input', 'productOptions')]
  const errors: ProductSetUserError[] = []
  options.forEach((option, i) => {
    const at = ['input', 'productOptions', i]
    if (options.findIndex((other) => other.name?.toLowerCase() === option.name?.toLowerCase()) < i)
      errors.push(refusal('DUPLICATED_OPTION_NAME', 'Duplicated option name.', ...at, 'name'))
    const values = (option.values ?? []).map((value) => value.name ?? '')
    if (values.length === 0) {
      const message = 'Each option must have at least one option value specified.'
      errors.push(refusal('OPTION_VALUES_MISSING', message, ...at, 'values'))
    }
    values.forEach((value, j) => {
      if (values.indexOf(value) < j)
        errors.push(
          refusal('DUPLICATED_OPTION_VALUE', 'Duplicated option value.', ...at, 'values', j),
        )
    })
  })
  return errors
}

function variantErrors(
  shop: ShopRecord,
  input: ProductSetInput,
  product: ProductRecord | undefined,
): ProductSetUserError[] {
  const variants = input.variants ?? []
  if (variants.length > MAX_VARIANTS) {
    const message = 'Number of product variants exceeds shop limit.'
    return [refusal('VARIANTS_OVER_LIMIT', message, 'input', 'variants')]
  }
  const options = input.productOptions ?? []
  const errors: ProductSetUserError[] = []
  const seen: string[] = []
  variants.forEach((variant, i) => {
    const at = ['input', 'variants', i]
    if (variant.id && !product?.variants.some((existing) => existing.id === variant.id))
      errors.push(
        refusal('PRODUCT_VARIANT_DOES_NOT_EXIST', 'Product variant does not exist.', ...at, 'id'),
      )
    variant.optionValues.forEach((value, j) => {
      const option = options.find((candidate) => candidate.name === value.optionName)
      if (!option)
        errors.push(
          refusal('OPTION_DOES_NOT_EXIST', 'Option does not exist.', ...at, 'optionValues', j),
        )
      else if (!option.values?.some((candidate) => candidate.name === value.name)) {
        const message = 'Option value does not exist.'
        errors.push(refusal('OPTION_VALUE_DOES_NOT_EXIST', message, ...at, 'optionValues', j))
      }
    })
    const named = options.map((option) =>
      variant.optionValues.find((v) => v.optionName === option.name),
    )
    if (named.some((value) => !value)) {
      const message = 'Each variant must have one value of each of the product’s options.'
      errors.push(refusal('INVALID_VARIANT', message, ...at, 'optionValues'))
    }
    const title = named.map((value) => value?.name ?? '').join(' / ')
    if (seen.includes(title))
      errors.push(refusal('INVALID_VARIANT', `The variant '${title}' already exists.`, ...at))
    seen.push(title)
    if (variant.price != null) {
      const minor = parseMinor(variant.price, shop.currency)
      if (minor === null || minor < 0) {
        const message = 'Price must be greater than or equal to 0'
        errors.push(refusal('INVALID_VARIANT', message, ...at, 'price'))
      }
    }
    ;(variant.inventoryQuantities ?? []).forEach((quantity, k) => {
      const here = [...at, 'inventoryQuantities', k]
      if (!QUANTITY_NAMES.includes(quantity.name)) {
        const message = "The quantity name must be either 'available' or 'on_hand'."
        errors.push(refusal('INVALID_INPUT', message, ...here, 'name'))
      }
      if (quantity.locationId !== shopLocation(shop).id)
        errors.push(refusal('NOT_FOUND', 'Location does not exist.', ...here, 'locationId'))
    })
  })
  return errors
}

function errorsOf(
  shop: ShopRecord,
  input: ProductSetInput,
  product: ProductRecord | undefined,
  handle: string | null,
): ProductSetUserError[] {
  const errors: ProductSetUserError[] = []
  const title = input.title ?? (product ? product.title : '')
  if (title.trim() === '')
    errors.push(refusal('INVALID_PRODUCT', "Title can't be blank", 'input', 'title'))
  if (handle && shop.products.some((other) => other !== product && other.handle === handle)) {
    const message = 'Handle already in use. Please provide a new handle.'
    errors.push(refusal('HANDLE_NOT_UNIQUE', message, 'input', 'handle'))
  }
  // Variants are checked against options that stand: a refused option would refuse them all.
  const refusedOptions = optionErrors(input)
  if (refusedOptions.length > 0) return [...errors, ...refusedOptions]
  return [...errors, ...variantErrors(shop, input, product)]
}

/** The first handle made from the title that no product has yet: 'tee', then 'tee-1', 'tee-2'. */
function freeHandle(shop: ShopRecord, title: string): string {
  const base = slug(title) || 'product'
  const taken = (handle: string) => shop.products.some((product) => product.handle === handle)
  let handle = base
  for (let n = 1; taken(handle); n++) handle = `${base}-${n}`
  return handle
}

/** The variants the input describes, reusing the ids of those it matches; says whose stock changed. */
function applyVariants(
  runtime: Runtime,
  shop: ShopRecord,
  product: ProductRecord,
  variants: VariantSetInput[],
): VariantRecord[] {
  const restocked: VariantRecord[] = []
  const options = product.options
  product.variants = variants.map((input) => {
    const selectedOptions = options.map((option) => ({
      name: option.name,
      value: input.optionValues.find((value) => value.optionName === option.name)?.name ?? '',
    }))
    const existing = product.variants.find((variant) =>
      input.id ? variant.id === input.id : sameValues(variant.selectedOptions, selectedOptions),
    )
    const variant: VariantRecord = existing ?? {
      id: gid('ProductVariant', ++runtime.state.lastIds.variant),
      title: '',
      sku: '',
      priceMinor: 0,
      inventoryQuantity: 0,
      inventoryPolicy: 'DENY',
      metafields: [],
      selectedOptions,
      inventoryItemId: gid('InventoryItem', ++runtime.state.lastIds.inventoryItem),
    }
    variant.selectedOptions = selectedOptions
    variant.title = selectedOptions.map((selected) => selected.value).join(' / ')
    if (input.price != null) variant.priceMinor = parseMinor(input.price, shop.currency) ?? 0
    if (input.sku != null) variant.sku = input.sku
    if (input.inventoryPolicy) variant.inventoryPolicy = input.inventoryPolicy
    // The emulator keeps no committed or reserved units, so on_hand and available are one number.
    const quantity = input.inventoryQuantities?.at(-1)?.quantity
    if (quantity !== undefined && (quantity !== variant.inventoryQuantity || !existing)) {
      variant.inventoryQuantity = quantity
      restocked.push(variant)
    }
    return variant
  })
  return restocked
}

/** A product made without options or variants has Shopify's one default variant. */
function defaultVariant(runtime: Runtime): VariantRecord {
  return {
    id: gid('ProductVariant', ++runtime.state.lastIds.variant),
    title: DEFAULT_OPTION.value,
    sku: '',
    priceMinor: 0,
    inventoryQuantity: 0,
    inventoryPolicy: 'DENY',
    metafields: [],
    selectedOptions: [{ ...DEFAULT_OPTION }],
    inventoryItemId: gid('InventoryItem', ++runtime.state.lastIds.inventoryItem),
  }
}

export interface ProductSetResult {
  product: ProductRecord | null
  userErrors: ProductSetUserError[]
  /** Settles once products/create or products/update and inventory_levels/update were attempted. */
  announced: Promise<void>
}

export function setProduct(
  runtime: Runtime,
  shop: ShopRecord,
  input: ProductSetInput,
  identifier: ProductSetIdentifiers | null | undefined,
): ProductSetResult {
  const found = target(shop, input, identifier)
  const refused = (userErrors: ProductSetUserError[]) => ({
    product: null,
    userErrors,
    announced: Promise.resolve(),
  })
  if ('code' in found) return refused([found])
  const existing = found.product
  const handle = input.handle ?? identifier?.handle ?? null
  const userErrors = errorsOf(shop, input, existing, handle)
  if (userErrors.length > 0) return refused(userErrors)

  const title = input.title ?? existing?.title ?? ''
  const product: ProductRecord = existing ?? {
    id: gid('Product', ++runtime.state.lastIds.product),
    title,
    handle: handle ?? freeHandle(shop, title),
    descriptionHtml: '',
    vendor: shop.name,
    status: 'ACTIVE',
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    options: [{ name: DEFAULT_OPTION.name, values: [DEFAULT_OPTION.value] }],
    images: [],
    variants: [defaultVariant(runtime)],
  }
  product.title = title
  if (handle) product.handle = handle
  if (input.descriptionHtml != null) product.descriptionHtml = input.descriptionHtml
  if (input.vendor != null) product.vendor = input.vendor
  if (input.status) product.status = input.status
  if (input.files)
    product.images = input.files.map((file) => ({
      url: file.originalSource ?? '',
      altText: file.alt ?? null,
    }))
  if (input.productOptions)
    product.options = input.productOptions.map((option) => ({
      name: option.name ?? '',
      values: (option.values ?? []).map((value) => value.name ?? ''),
    }))
  const restocked = input.variants ? applyVariants(runtime, shop, product, input.variants) : []
  if (existing) touch(product)
  else shop.products.push(product)
  runtime.save()
  const announced = Promise.all([
    announceProduct(runtime, shop, product, existing ? 'update' : 'create'),
    ...restocked.map((variant) => announceStock(runtime, shop, variant)),
  ]).then(() => undefined)
  return { product, userErrors: [], announced }
}
