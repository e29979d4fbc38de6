import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { shopifyEmulatorPerTest, webhookReceiver, type Json } from './support/shopify-admin-client'

// The catalogue of the Shopify emulator as Tandem's server will use it when a creator lists a
// brand's products (issue 34): the product and locations queries, productSet and
// inventorySetQuantities with Shopify's refusals, access scopes, and the product and inventory
// webhooks that each change sends.

const BRAND = 'northwind-apparel.myshopify.com'
const CREATOR = 'maya-makes.myshopify.com'
const OVERSHIRT_PRODUCT = 'gid://shopify/Product/101'
const OVERSHIRT = 'gid://shopify/ProductVariant/201'

const under = shopifyEmulatorPerTest()

const PRODUCT = `query ($id: ID!) {
  product(id: $id) {
    id title handle descriptionHtml vendor status updatedAt
    options { name optionValues { name } }
    media(first: 5) { nodes { mediaContentType alt ... on MediaImage { image { url } } } }
    variants(first: 10) { nodes {
      id title sku price inventoryQuantity inventoryPolicy
      selectedOptions { name value } inventoryItem { id }
    } }
  }
}`

const PRODUCT_SET = `mutation ($input: ProductSetInput!, $identifier: ProductSetIdentifiers,
    $synchronous: Boolean = true) {
  productSet(input: $input, identifier: $identifier, synchronous: $synchronous) {
    product { id handle status updatedAt variants(first: 10) { nodes {
      id selectedOptions { name value } inventoryItem { id } inventoryQuantity price
    } } }
    productSetOperation { id status }
    userErrors { field message code }
  }
}`

const SET_QUANTITIES = `mutation ($input: InventorySetQuantitiesInput!, $key: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $key) {
    inventoryAdjustmentGroup { id reason changes { name delta quantityAfterChange } }
    userErrors { field message code }
  }
}`

let location: string
beforeEach(async () => {
  const answer = await under.data(CREATOR, '{ locations(first: 5) { nodes { id name } } }')
  location = answer.locations.nodes[0].id
})

const productSet = async (variables: object, shop = CREATOR) =>
  (await under.data(shop, PRODUCT_SET, variables)).productSet

/** A listing of the overshirt as Tandem would make it: two sizes, with stock. */
const listing = (overrides: object = {}) => ({
  title: 'Linen Overshirt',
  descriptionHtml: '<p>Washed linen.</p>',
  vendor: 'Northwind Apparel',
  handle: 'linen-overshirt-northwind',
  status: 'ACTIVE',
  productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }] }],
  files: [
    {
      originalSource: 'http://tandem.test/images/overshirt.svg',
      contentType: 'IMAGE',
      alt: 'Front',
    },
  ],
  variants: ['S', 'M'].map((size) => ({
    optionValues: [{ optionName: 'Size', name: size }],
    price: '68.00',
    sku: `OVERSHIRT-${size}`,
    inventoryPolicy: 'DENY',
    inventoryItem: { tracked: true },
    inventoryQuantities: [{ locationId: location, name: 'available', quantity: 7 }],
  })),
  ...overrides,
})

describe('the product and locations queries', () => {
  it('answer what a listing copies, and null for an unknown product', async () => {
    const answer = await under.data(BRAND, PRODUCT, { id: OVERSHIRT_PRODUCT })
    expect(answer.product).toEqual({
      id: OVERSHIRT_PRODUCT,
      title: 'Linen Overshirt',
      handle: 'linen-overshirt',
      descriptionHtml: '<p>Linen Overshirt, made by Northwind Apparel.</p>',
      vendor: 'Northwind Apparel',
      status: 'ACTIVE',
      updatedAt: '2026-11-01T00:00:00.000Z',
      options: [{ name: 'Title', optionValues: [{ name: 'Default Title' }] }],
      media: {
        nodes: [
          {
            mediaContentType: 'IMAGE',
            alt: null,
            image: { url: 'http://tandem.test/images/products/linen-overshirt.svg' },
          },
        ],
      },
      variants: {
        nodes: [
          {
            id: OVERSHIRT,
            title: 'Default Title',
            sku: 'LINEN-OVERSHIRT',
            price: '68.00',
            inventoryQuantity: 100,
            inventoryPolicy: 'DENY',
            selectedOptions: [{ name: 'Title', value: 'Default Title' }],
            inventoryItem: { id: expect.stringMatching(/^gid:\/\/shopify\/InventoryItem\/\d+$/) },
          },
        ],
      },
    })
    const unknown = await under.data(BRAND, PRODUCT, { id: 'gid://shopify/Product/999999' })
    expect(unknown.product).toBeNull()
    expect(location).toMatch(/^gid:\/\/shopify\/Location\/\d+$/)
    const brandLocation = await under.data(BRAND, '{ locations(first: 5) { nodes { id } } }')
    // The brand's own location first, then its 3PL's (shopify-emulator-fulfillments.test.ts).
    expect(brandLocation.locations.nodes).toHaveLength(2)
    expect(brandLocation.locations.nodes[0].id).not.toBe(location)
  })
})

describe('productSet', () => {
  it('creates a product, then updates it by id and by handle, deleting the variants left out', async () => {
    const created = await productSet({ input: listing() })
    expect(created.userErrors).toEqual([])
    expect(created.product).toMatchObject({
      handle: 'linen-overshirt-northwind',
      status: 'ACTIVE',
      variants: {
        nodes: [
          { selectedOptions: [{ name: 'Size', value: 'S' }], inventoryQuantity: 7, price: '68.00' },
          { selectedOptions: [{ name: 'Size', value: 'M' }], inventoryQuantity: 7, price: '68.00' },
        ],
      },
    })
    const { id } = created.product
    const [small, medium] = created.product.variants.nodes
    expect(under.emulator.product(CREATOR, id)).toMatchObject({
      title: 'Linen Overshirt',
      descriptionHtml: '<p>Washed linen.</p>',
      vendor: 'Northwind Apparel',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      images: [{ url: 'http://tandem.test/images/overshirt.svg', altText: 'Front' }],
      variants: [{ id: small.id, sku: 'OVERSHIRT-S', price: '68.00' }, { id: medium.id }],
    })

    // By id: the price of S changes, M is left out and deleted; S keeps its ids.
    const byId = await productSet({
      identifier: { id },
      input: {
        productOptions: [{ name: 'Size', values: [{ name: 'S' }] }],
        variants: [{ optionValues: [{ optionName: 'Size', name: 'S' }], price: '72.00' }],
      },
    })
    expect(byId.userErrors).toEqual([])
    expect(byId.product.variants.nodes).toEqual([{ ...small, price: '72.00' }])
    expect(Date.parse(byId.product.updatedAt)).toBeGreaterThan(
      Date.parse(created.product.updatedAt),
    )

    // By handle, as a retry of the first call would be sent: the same product, no second one.
    const count = under.emulator.products(CREATOR).length
    const byHandle = await productSet({
      identifier: { handle: 'linen-overshirt-northwind' },
      input: listing({ status: 'DRAFT' }),
    })
    expect(byHandle.userErrors).toEqual([])
    expect(byHandle.product).toMatchObject({ id, status: 'DRAFT' })
    expect(byHandle.product.variants.nodes[0].id).toBe(small.id)
    expect(byHandle.product.variants.nodes[1].id).not.toBe(medium.id)
    expect(under.emulator.products(CREATOR)).toHaveLength(count)
  })

  it('refuses with Shopify’s codes what cannot be set, changing nothing', async () => {
    await productSet({ input: listing() })
    const count = under.emulator.products(CREATOR).length
    const refused = async (variables: object) => (await productSet(variables)).userErrors
    const size = (...values: string[]) => [
      { name: 'Size', values: values.map((name) => ({ name })) },
    ]
    const variant = (value: string, more: object = {}) => ({
      optionValues: [{ optionName: 'Size', name: value }],
      ...more,
    })

    expect(await refused({ input: listing() })).toEqual([
      {
        field: ['input', 'handle'],
        message: 'Handle already in use. Please provide a new handle.',
        code: 'HANDLE_NOT_UNIQUE',
      },
    ])
    expect(
      await refused({ identifier: { id: 'gid://shopify/Product/999999' }, input: {} }),
    ).toEqual([
      {
        field: ['identifier', 'id'],
        message: 'Product does not exist',
        code: 'PRODUCT_DOES_NOT_EXIST',
      },
    ])
    expect(await refused({ identifier: { handle: 'a' }, input: listing({ handle: 'b' }) })).toEqual(
      [
        {
          field: ['input', 'handle'],
          message:
            'The identifier value does not match the value of the corresponding field in the input.',
          code: 'INPUT_MISMATCH',
        },
      ],
    )
    expect(await refused({ input: listing({ title: ' ', handle: 'blank' }) })).toEqual([
      { field: ['input', 'title'], message: "Title can't be blank", code: 'INVALID_PRODUCT' },
    ])
    const fourOptions = ['A', 'B', 'C', 'D'].map((name) => ({ name, values: [{ name: 'x' }] }))
    expect(
      await refused({ input: listing({ handle: 'four', productOptions: fourOptions }) }),
    ).toEqual([
      {
        field: ['input', 'productOptions'],
        message: 'Options over limit.',
        code: 'OPTIONS_OVER_LIMIT',
      },
    ])
    expect(
      await refused({
        input: listing({ handle: 'xl', variants: [variant('S'), variant('XL')] }),
      }),
    ).toEqual([
      {
        field: ['input', 'variants', '1', 'optionValues', '0'],
        message: 'Option value does not exist.',
        code: 'OPTION_VALUE_DOES_NOT_EXIST',
      },
    ])
    expect(
      await refused({
        input: listing({
          handle: 'color',
          variants: [{ optionValues: [{ optionName: 'Color', name: 'S' }] }],
        }),
      }),
    ).toMatchObject([
      { field: ['input', 'variants', '0', 'optionValues', '0'], code: 'OPTION_DOES_NOT_EXIST' },
      { field: ['input', 'variants', '0', 'optionValues'], code: 'INVALID_VARIANT' },
    ])
    expect(
      await refused({
        input: listing({ handle: 'twice', variants: [variant('S'), variant('S')] }),
      }),
    ).toEqual([
      {
        field: ['input', 'variants', '1'],
        message: "The variant 'S' already exists.",
        code: 'INVALID_VARIANT',
      },
    ])
    expect(
      await refused({
        input: listing({ handle: 'cheap', variants: [variant('S', { price: '-1.00' })] }),
      }),
    ).toEqual([
      {
        field: ['input', 'variants', '0', 'price'],
        message: 'Price must be greater than or equal to 0',
        code: 'INVALID_VARIANT',
      },
    ])
    const many = Array.from({ length: 2049 }, (_, i) => variant(String(i)))
    expect(
      await refused({
        input: listing({
          handle: 'many',
          productOptions: size(...many.map((_, i) => String(i))),
          variants: many,
        }),
      }),
    ).toEqual([
      {
        field: ['input', 'variants'],
        message: 'Number of product variants exceeds shop limit.',
        code: 'VARIANTS_OVER_LIMIT',
      },
    ])
    const elsewhere = [
      { locationId: 'gid://shopify/Location/999999', name: 'available', quantity: 1 },
    ]
    expect(
      await refused({
        input: listing({
          handle: 'away',
          variants: [variant('S', { inventoryQuantities: elsewhere })],
        }),
      }),
    ).toEqual([
      {
        field: ['input', 'variants', '0', 'inventoryQuantities', '0', 'locationId'],
        message: 'Location does not exist.',
        code: 'NOT_FOUND',
      },
    ])
    expect(await refused({ input: listing({ handle: 'nosizes', variants: null }) })).toEqual([
      {
        field: ['input', 'variants'],
        message: 'Must specify variants when updating options.',
        code: 'VARIANTS_INPUT_MISSING',
      },
    ])
    expect(
      await refused({
        input: listing({ handle: 'dup', productOptions: size('S', 'S'), variants: [variant('S')] }),
      }),
    ).toEqual([
      {
        field: ['input', 'productOptions', '0', 'values', '1'],
        message: 'Duplicated option value.',
        code: 'DUPLICATED_OPTION_VALUE',
      },
    ])
    expect(under.emulator.products(CREATOR)).toHaveLength(count)
  })

  it('answers an operation when asked not to wait, and productOperation reads its product', async () => {
    const started = await productSet({ input: listing(), synchronous: false })
    expect(started).toEqual({
      product: null,
      productSetOperation: {
        id: expect.stringMatching(/^gid:\/\/shopify\/ProductSetOperation\/\d+$/),
        status: 'CREATED',
      },
      userErrors: [],
    })
    const read = await under.data(
      CREATOR,
      `query ($id: ID!) { productOperation(id: $id) { status product { handle }
        ... on ProductSetOperation { userErrors { code } } } }`,
      { id: started.productSetOperation.id },
    )
    expect(read.productOperation).toEqual({
      status: 'COMPLETE',
      product: { handle: 'linen-overshirt-northwind' },
      userErrors: [],
    })
  })
})

describe('inventorySetQuantities', () => {
  const setQuantities = async (quantities: object[], key: string, name = 'available') =>
    (
      await under.admin(CREATOR, SET_QUANTITIES, {
        key,
        input: {
          name,
          reason: 'correction',
          referenceDocumentUri: 'tandem://listing/1',
          quantities,
        },
      })
    ).body

  it('sets stock only from the quantity it was changed from, or without the check when null', async () => {
    const created = await productSet({ input: listing() })
    const [small] = created.product.variants.nodes
    const item = small.inventoryItem.id
    const quantity = (changeFromQuantity: number | null, value: number) => ({
      inventoryItemId: item,
      locationId: location,
      quantity: value,
      changeFromQuantity,
    })

    const stale = await setQuantities([quantity(5, 9)], 'stale')
    expect(stale.data.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: null,
      userErrors: [
        {
          field: ['input', 'quantities', '0', 'changeFromQuantity'],
          message: 'The changeFromQuantity value does not match persisted value.',
          code: 'CHANGE_FROM_QUANTITY_STALE',
        },
      ],
    })
    const fresh = await setQuantities([quantity(7, 9)], 'fresh')
    expect(fresh.data.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: {
        id: expect.stringMatching(/^gid:\/\/shopify\/InventoryAdjustmentGroup\/\d+$/),
        reason: 'correction',
        changes: [
          { name: 'available', delta: 2, quantityAfterChange: 9 },
          { name: 'on_hand', delta: 2, quantityAfterChange: 9 },
        ],
      },
      userErrors: [],
    })
    // The same key again answers the first call's changes and changes nothing.
    const retried = await setQuantities([quantity(7, 9)], 'fresh')
    expect(retried.data.inventorySetQuantities).toEqual(fresh.data.inventorySetQuantities)
    const unchecked = await setQuantities([quantity(null, 4)], 'unchecked')
    expect(unchecked.data.inventorySetQuantities.userErrors).toEqual([])
    expect(under.emulator.stockOf(small.id)).toBe(4)

    const reused = await setQuantities([quantity(null, 3)], 'fresh')
    expect(reused.data.inventorySetQuantities.userErrors).toEqual([
      {
        field: null,
        message: 'The same idempotency key cannot be used with different operation parameters.',
        code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH',
      },
    ])
    const wrong = await setQuantities(
      [
        {
          ...quantity(null, 1),
          inventoryItemId: 'gid://shopify/InventoryItem/999999',
          locationId: 'gid://shopify/Location/999999',
        },
      ],
      'wrong',
      'committed',
    )
    expect(wrong.data.inventorySetQuantities.userErrors.map((e: Json) => e.code)).toEqual([
      'INVALID_NAME',
      'INVALID_INVENTORY_ITEM',
      'INVALID_LOCATION',
    ])
    expect(under.emulator.stockOf(small.id)).toBe(4)
  })

  // Shopify's rule for every @idempotent mutation (InventorySetQuantitiesUserErrorCode, 2026-10).
  it('refuses for good a key whose call was refused: the same call, once it can be made, takes a new key', async () => {
    const created = await productSet({ input: listing() })
    const [small] = created.product.variants.nodes
    const nine = [
      {
        inventoryItemId: small.inventoryItem.id,
        locationId: location,
        quantity: 9,
        changeFromQuantity: null,
      },
    ]
    // The merchant made the variant a bundle's parent: its stock is its components', not an app's.
    await under.emulator.editVariant(CREATOR, small.id, { bundle: true })
    const refused = await setQuantities(nine, 'stock-1')
    expect(refused.data.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: null,
      userErrors: [
        {
          field: ['input', 'quantities', '0', 'inventoryItemId'],
          message: 'The specified inventory item is not allowed to be adjusted via API.',
          code: 'NON_MUTABLE_INVENTORY_ITEM',
        },
      ],
    })

    await under.emulator.editVariant(CREATOR, small.id, { bundle: false })
    const again = await setQuantities(nine, 'stock-1')
    expect(again.data.inventorySetQuantities).toEqual({
      inventoryAdjustmentGroup: null,
      userErrors: [
        {
          field: null,
          message:
            'A previous request with this idempotency key failed. Retry with a new idempotency key.',
          code: 'IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED',
        },
      ],
    })
    expect(under.emulator.stockOf(small.id)).toBe(7)

    const renewed = await setQuantities(nine, 'stock-1#2')
    expect(renewed.data.inventorySetQuantities.userErrors).toEqual([])
    expect(under.emulator.stockOf(small.id)).toBe(9)
    // A key whose call made its change answers it again, as before.
    expect((await setQuantities(nine, 'stock-1#2')).data).toEqual(renewed.data)
    expect(under.emulator.stockOf(small.id)).toBe(9)
  })

  it('fails the request without changeFromQuantity or without an idempotency key', async () => {
    const [variant] = under.emulator.product(CREATOR, 'gid://shopify/Product/301')!.variants
    const quantities = [
      { inventoryItemId: variant!.inventoryItemId, locationId: location, quantity: 1 },
    ]
    const omitted = await setQuantities(quantities, 'omitted')
    expect(omitted.errors[0].message).toMatch(/changeFromQuantity is required/)
    const withoutKey = await under.admin(
      CREATOR,
      `mutation ($input: InventorySetQuantitiesInput!) {
        inventorySetQuantities(input: $input) { userErrors { code } } }`,
      { input: { name: 'available', reason: 'correction', quantities } },
    )
    expect(withoutKey.body.errors[0]).toMatchObject({
      message: 'The @idempotent directive is required for this mutation but was not provided.',
      extensions: { code: 'BAD_REQUEST' },
    })
    expect(under.emulator.stockOf(variant!.id)).toBe(100)
  })
})

describe('access scopes', () => {
  it('refuse each field and mutation the token’s scopes do not cover, as Shopify does', async () => {
    under.emulator.setScopes(CREATOR, 'read_products')
    const denied = (field: string, scope: string) => ({
      message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
      path: [field],
      extensions: {
        code: 'ACCESS_DENIED',
        documentation: 'https://shopify.dev/api/usage/access-scopes',
        requiredAccess: `\`${scope}\` access scope.`,
      },
    })
    const locations = await under.admin(CREATOR, '{ locations(first: 1) { nodes { id } } }')
    expect(locations.body).toMatchObject({
      data: null,
      errors: [denied('locations', 'read_locations')],
    })
    const set = await under.admin(CREATOR, PRODUCT_SET, { input: listing() })
    expect(set.body).toMatchObject({
      data: { productSet: null },
      errors: [denied('productSet', 'write_products')],
    })
    const quantities = await under.admin(CREATOR, SET_QUANTITIES, {
      key: 'k',
      input: { name: 'available', reason: 'correction', quantities: [] },
    })
    expect(quantities.body.errors).toMatchObject([
      denied('inventorySetQuantities', 'write_inventory'),
    ])
    const subscribe = await under.data(
      CREATOR,
      `mutation { webhookSubscriptionCreate(topic: INVENTORY_LEVELS_UPDATE,
        webhookSubscription: { uri: "https://tandem.test/webhooks" }) { userErrors { field message } } }`,
    )
    expect(subscribe.webhookSubscriptionCreate.userErrors).toEqual([
      {
        field: ['topic'],
        message:
          'You do not have permission to create or update webhooks with inventory_levels/update topic. This topic requires the read_inventory access scope.',
      },
    ])
    // A write scope grants its read scope.
    under.emulator.setScopes(CREATOR, 'write_products')
    expect(
      (await under.data(CREATOR, PRODUCT, { id: 'gid://shopify/Product/301' })).product,
    ).not.toBeNull()
  })
})

describe('product and inventory webhooks', () => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  beforeEach(async () => {
    receiver = await webhookReceiver()
  })
  afterEach(() => receiver.close())

  const subscribe = async (shop: string, topic: string) => {
    const answer = await under.data(
      shop,
      `mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) {
        webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) {
          userErrors { message } } }`,
      { topic, uri: receiver.uri },
    )
    expect(answer.webhookSubscriptionCreate.userErrors).toEqual([])
  }
  const delivered = () =>
    receiver.received.map((delivery) => ({
      topic: delivery.headers['x-shopify-topic'],
      shop: delivery.headers['x-shopify-shop-domain'],
      body: JSON.parse(delivery.body) as Json,
    }))

  it('announces each merchant change to the subscriptions of its topic in its shop only', async () => {
    for (const topic of ['PRODUCTS_UPDATE', 'PRODUCTS_DELETE', 'INVENTORY_LEVELS_UPDATE'])
      await subscribe(BRAND, topic)
    await under.emulator.editVariant(BRAND, OVERSHIRT, { priceMinor: 7200 })
    await under.emulator.setProductStatus(BRAND, OVERSHIRT_PRODUCT, 'DRAFT')
    await under.emulator.setStock(BRAND, OVERSHIRT, 12)
    await under.emulator.deleteProduct(BRAND, 'gid://shopify/Product/102')
    // The creator's shop has no subscription: its changes go nowhere.
    await under.emulator.editVariant(CREATOR, 'gid://shopify/ProductVariant/401', {
      priceMinor: 100,
    })
    await under.emulator.setStock(CREATOR, 'gid://shopify/ProductVariant/401', 1)

    const [edited, drafted, stocked, deleted, ...others] = delivered()
    expect(others).toEqual([])
    const itemId = Number(
      under.emulator
        .product(BRAND, OVERSHIRT_PRODUCT)!
        .variants[0]!.inventoryItemId.split('/')
        .at(-1),
    )
    expect(edited).toMatchObject({
      topic: 'products/update',
      shop: BRAND,
      body: {
        id: 101,
        admin_graphql_api_id: OVERSHIRT_PRODUCT,
        title: 'Linen Overshirt',
        status: 'active',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        image: { src: 'http://tandem.test/images/products/linen-overshirt.svg' },
        variants: [
          {
            id: 201,
            admin_graphql_api_id: OVERSHIRT,
            price: '72.00',
            inventory_item_id: itemId,
            inventory_quantity: 100,
          },
        ],
      },
    })
    expect(drafted).toMatchObject({ topic: 'products/update', body: { id: 101, status: 'draft' } })
    expect(Date.parse(drafted!.body.updated_at)).toBeGreaterThan(
      Date.parse(edited!.body.updated_at),
    )
    const brandLocation = (await under.data(BRAND, '{ locations(first: 1) { nodes { id } } }'))
      .locations.nodes[0].id as string
    const locationId = Number(brandLocation.split('/').at(-1))
    expect(stocked).toEqual({
      topic: 'inventory_levels/update',
      shop: BRAND,
      body: {
        inventory_item_id: itemId,
        location_id: locationId,
        available: 12,
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        admin_graphql_api_id: `gid://shopify/InventoryLevel/${locationId}?inventory_item_id=${itemId}`,
      },
    })
    expect(deleted).toEqual({ topic: 'products/delete', shop: BRAND, body: { id: 102 } })
    expect(under.emulator.product(BRAND, 'gid://shopify/Product/102')).toBeNull()
  })

  it('announces what productSet and inventorySetQuantities change', async () => {
    for (const topic of ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'INVENTORY_LEVELS_UPDATE'])
      await subscribe(CREATOR, topic)
    const created = await productSet({ input: listing() })
    await expect.poll(() => receiver.received.length).toBe(3)
    // Deliveries made at once may arrive in any order.
    const seen = (from: number) =>
      delivered()
        .slice(from)
        .map((d) => `${d.topic} ${d.body.handle ?? d.body.title ?? d.body.available}`)
        .sort()
    expect(seen(0)).toEqual([
      'inventory_levels/update 7',
      'inventory_levels/update 7',
      'products/create linen-overshirt-northwind',
    ])
    const [small] = created.product.variants.nodes
    await productSet({ identifier: { id: created.product.id }, input: { title: 'Overshirt' } })
    await under.admin(CREATOR, SET_QUANTITIES, {
      key: 'restock',
      input: {
        name: 'available',
        reason: 'correction',
        quantities: [
          {
            inventoryItemId: small.inventoryItem.id,
            locationId: location,
            quantity: 2,
            changeFromQuantity: 7,
          },
        ],
      },
    })
    await expect.poll(() => receiver.received.length).toBe(5)
    expect(seen(3)).toEqual([
      'inventory_levels/update 2',
      'products/update linen-overshirt-northwind',
    ])
    expect(delivered().find((d) => d.topic === 'products/update')?.body.title).toBe('Overshirt')
  })
})
