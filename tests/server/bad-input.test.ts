import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '@shared/contract'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// Every call that takes input, against every kind of bad input: each is a 400 (a 413 for a body
// over the limit) whose message names the field (or says what is wrong with the request as a
// whole), never a 500, and never reaches the database.

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(() => server.close())

type Method = 'GET' | 'POST' | 'DELETE'

interface BadRequest {
  method: Method
  url: string
  /** Sent as it is: most cases are not JSON that JSON.stringify could write. */
  payload?: string
  contentType?: string
  /** The exact message, or a pattern where only the field it names is pinned. */
  message: string | RegExp
  /** 400 unless said: a body over the limit is 413. */
  status?: 413
}

const JSON_TYPE = 'application/json'
const SHOP_PATTERN = 'must look like name.myshopify.com'

/** Shop domains the contract refuses as malformed. */
const BAD_SHOP_VALUES: [string, unknown][] = [
  ['no domain', 'maya-makes'],
  ['another domain', 'maya-makes.com'],
  ['a suffix after the domain', 'maya.myshopify.com.evil.com'],
  ['a leading hyphen', '-maya.myshopify.com'],
  ['a space inside', 'maya makes.myshopify.com'],
  ['a path', 'maya.myshopify.com/admin'],
  ['full-width letters', 'ｍａｙａ.myshopify.com'],
  ['a zero-width space', 'maya\u200b.myshopify.com'],
  ['an emoji', '🛍️.myshopify.com'],
  ['a NUL', 'maya\u0000.myshopify.com'],
  // A store's URL is accepted as its shop (scheme and one trailing slash dropped); any URL that
  // is not just that shop is still refused, so that no other host or path passes as one.
  ['another host before it', 'https://evil.com/maya.myshopify.com'],
  ['another host after it', 'https://maya.myshopify.com.evil.com/'],
  ['a URL with a path', 'https://maya.myshopify.com/admin'],
  ['a URL with a port', 'https://maya.myshopify.com:8443/'],
  ['a URL with credentials', 'https://user@maya.myshopify.com/'],
  ['another scheme', 'ftp://maya.myshopify.com'],
  ['two slashes at the end', 'https://maya.myshopify.com//'],
  ['a scheme-relative URL', '//maya.myshopify.com'],
  ['two schemes', 'https://https://maya.myshopify.com'],
]
const SHOP_TOO_LONG =
  'must be at most 77 characters (a store name of up to 63, then .myshopify.com)'
/** Every refused shop, with the rule its message names. */
const BAD_SHOPS: [string, unknown, string][] = [
  ['empty', '', 'is required'],
  ['blank', '   ', 'is required'],
  ...BAD_SHOP_VALUES.map(([name, shop]): [string, unknown, string] => [name, shop, SHOP_PATTERN]),
  ['a store name over 63 characters', `${'a'.repeat(64)}.myshopify.com`, SHOP_TOO_LONG],
]

/** Values of the wrong JSON type for a string field, with the type the message names. */
const NOT_STRINGS: [string, unknown][] = [
  ['a number', 42],
  ['a boolean', true],
  ['null', null],
  ['an array', ['maya-makes.myshopify.com']],
  ['nested junk', { $ne: { a: [1, { b: null }] } }],
]

/**
 * What a rate's field is told of any value that is not a rate, word for word what the console's
 * field says under it (tests/renderer/store-detail.test.tsx).
 */
const RATE_RULE = 'must be a number from 0 to 100 with at most two decimals, such as 12.5'

/** Values that are not a rate, each refused in the rate's sentence. */
const NOT_RATES: [string, unknown][] = [
  ['a numeric string', '10'],
  ['a decimal comma', '10,5'],
  ['an empty string', ''],
  ['null', null],
  ['an array', [10]],
  ['an object', { value: 10 }],
  ['a negative rate', -1],
  ['-5', -5],
  ['three decimals', 10.001],
]

/** Over 100 on its own; a default's other rule, the sum of its two rates, then fails as well. */
const OVER_100 = 100.5

/** Bodies that are not a JSON object, or not JSON, for any call that takes a body. */
const bodyCases = (url: string, valid: object): [string, BadRequest][] => {
  const post = (payload: string | undefined, message: string, contentType = JSON_TYPE) => ({
    method: 'POST' as const,
    url,
    payload,
    contentType: payload === undefined ? undefined : contentType,
    message,
  })
  const overLimit = JSON.stringify({ ...valid, padding: 'x'.repeat(1_000_001) })
  const notObject = 'The request body must be a JSON object'
  const notJson = 'The request body is not valid JSON'
  const validText = JSON.stringify(valid)
  return [
    ['no body', post(undefined, notObject)],
    ['an empty JSON body', post('', 'The request body is empty but says it is JSON')],
    ['malformed JSON', post(validText.slice(0, -1), notJson)],
    ['NaN, which JSON does not have', post('{"value": NaN}', notJson)],
    ['single quotes', post(validText.replaceAll('"', "'"), notJson)],
    ['a __proto__ key', post(`{"__proto__": {"admin": true}, ${validText.slice(1)}`, notJson)],
    [
      'a constructor.prototype key',
      post(`{"constructor": {"prototype": {"admin": true}}, ${validText.slice(1)}`, notJson),
    ],
    ['null', post('null', notObject)],
    ['an array', post(`[${validText}]`, notObject)],
    ['a string', post('"hello"', notObject)],
    ['a number', post('42', notObject)],
    ['deeply nested arrays', post('['.repeat(50_000) + ']'.repeat(50_000), notObject)],
    ['JSON sent as text/plain', post(validText, notObject, 'text/plain')],
    [
      'XML',
      post(
        '<storeShop>maya-makes.myshopify.com</storeShop>',
        'The request body must be JSON (Content-Type: application/json)',
        'application/xml',
      ),
    ],
    [
      'a form',
      post(
        'storeShop=maya-makes.myshopify.com',
        'The request body must be JSON (Content-Type: application/json)',
        'application/x-www-form-urlencoded',
      ),
    ],
    ['over 1 MB', { ...post(overLimit, 'The request body is too large'), status: 413 }],
    ['an unknown field', post(JSON.stringify({ ...valid, admin: true }), 'Unknown field admin')],
  ]
}

/** A body call's field-level cases: the valid body with one change. */
const fieldCases = (
  url: string,
  cases: [string, object, string | RegExp][],
): [string, BadRequest][] =>
  cases.map(([name, body, message]) => [
    name,
    { method: 'POST', url, payload: JSON.stringify(body), contentType: JSON_TYPE, message },
  ])

const get = (url: string, message: string | RegExp): BadRequest => ({
  method: 'GET',
  url,
  message,
})
const del = (url: string, message: string | RegExp): BadRequest => ({
  method: 'DELETE',
  url,
  message,
})
const shopQuery = (shop: unknown) => encodeURIComponent(String(shop))

const appConfig = {
  shop: 'fresh-goods.myshopify.com',
  clientId: 'client-fresh',
  clientSecret: 'shpss_fresh',
  shopType: 'BRAND',
}
const defaultCommission = {
  brandStoreShop: 'northwind-apparel.myshopify.com',
  tandemCommissionRate: 10,
  creatorCommissionRate: 15,
}
const uniqueRate = {
  brandStoreShop: 'lumen-botanicals.myshopify.com',
  creatorStoreShop: 'maya-makes.myshopify.com',
  commissionRate: 20,
}
const without = <T extends object>(value: T, key: keyof T) =>
  Object.fromEntries(Object.entries(value).filter(([name]) => name !== key))

const CALLS: Record<string, [string, BadRequest][]> = {
  'GET /get-all-app-config, /get-app-urls, /admin-all-stores': [
    '/get-all-app-config',
    '/get-app-urls',
    '/admin-all-stores',
  ].flatMap((path): [string, BadRequest][] => [
    [
      `${path} with an unknown parameter`,
      get(`${path}?shop=a.myshopify.com`, 'Unknown field shop'),
    ],
    [`${path} with a repeated parameter`, get(`${path}?x=1&x=2`, 'Unknown field x')],
  ]),

  'POST /create-app-config': [
    ...bodyCases('/create-app-config', appConfig),
    ...fieldCases('/create-app-config', [
      [
        'no fields',
        {},
        /^shop is required; clientId is required; clientSecret is required; shopType\b/,
      ],
      ...(['shop', 'clientId', 'clientSecret'] as const).map((field): [string, object, string] => [
        `no ${field}`,
        without(appConfig, field),
        `${field} is required`,
      ]),
      ['no shopType', without(appConfig, 'shopType'), /^shopType\b/],
      ['a blank clientId', { ...appConfig, clientId: '  \t ' }, 'clientId is required'],
      ['a blank clientSecret', { ...appConfig, clientSecret: '\n' }, 'clientSecret is required'],
      [
        'a 900,000-character clientId',
        { ...appConfig, clientId: 'a'.repeat(900_000) },
        "clientId must be at most 128 characters (Shopify's are 32 to 38)",
      ],
      [
        'a 129-character clientSecret',
        { ...appConfig, clientSecret: `shpss_${'0'.repeat(123)}` },
        "clientSecret must be at most 128 characters (Shopify's are 32 to 38)",
      ],
      ...(
        [
          ['a space inside', 'client fresh'],
          ['a NUL', 'client\u0000fresh'],
          ['markup', '<script>alert(1)</script>'],
          ['a newline inside', 'client\nfresh'],
          ['non-ASCII letters', 'clïent'],
        ] as const
      ).flatMap(([name, value]): [string, object, string][] =>
        (['clientId', 'clientSecret'] as const).map((field) => [
          `a ${field} with ${name}`,
          { ...appConfig, [field]: value },
          `${field} must hold only letters, digits, "_" and "-", as Shopify's do`,
        ]),
      ),
      ['an unknown shopType', { ...appConfig, shopType: 'RETAILER' }, /^shopType\b/],
      ['a lower-case shopType', { ...appConfig, shopType: 'brand' }, /^shopType\b/],
      ['a shopType array', { ...appConfig, shopType: ['BRAND'] }, /^shopType\b/],
      ...NOT_STRINGS.map(([name, value]): [string, object, string] => [
        `clientId as ${name}`,
        { ...appConfig, clientId: value },
        'clientId must be a string',
      ]),
      ...BAD_SHOPS.map(([name, shop, rule]): [string, object, string] => [
        `a shop with ${name}`,
        { ...appConfig, shop },
        `shop ${rule}`,
      ]),
    ]),
  ],

  'DELETE /delete-app-config/:shop': [
    ...BAD_SHOPS.filter(([, shop]) => String(shop).trim() !== '').map(
      ([name, shop, rule]): [string, BadRequest] => [
        `a shop with ${name}`,
        del(`/delete-app-config/${shopQuery(shop)}`, `shop ${rule}`),
      ],
    ),
    ['no shop', del('/delete-app-config/', 'shop is required')],
    ['a broken percent-encoding', del('/delete-app-config/%ZZ', 'The request URL is malformed')],
  ],

  'POST /admin-set-store-payment-account': fieldCases('/admin-set-store-payment-account', [
    [
      'an accountId over 255 characters',
      { shop: 'northwind-apparel.myshopify.com', accountId: `acct_${'A'.repeat(251)}` },
      'accountId must be at most 255 characters',
    ],
    [
      'an accountId that is not a Stripe account',
      { shop: 'northwind-apparel.myshopify.com', accountId: 'cus_123' },
      'accountId must look like acct_…',
    ],
  ]),

  'POST /admin-update-products': [
    ...bodyCases('/admin-update-products', { storeShop: 'maya-makes.myshopify.com' }),
    ...fieldCases('/admin-update-products', [
      ['no storeShop', {}, 'storeShop is required'],
      ...NOT_STRINGS.map(([name, value]): [string, object, string] => [
        `storeShop as ${name}`,
        { storeShop: value },
        'storeShop must be a string',
      ]),
      ...BAD_SHOPS.map(([name, shop, rule]): [string, object, string] => [
        `a storeShop with ${name}`,
        { storeShop: shop },
        `storeShop ${rule}`,
      ]),
    ]),
  ],

  'GET /admin-get-default-shop-commission-rate': [
    ['no shop', get('/admin-get-default-shop-commission-rate', 'shop is required')],
    [
      'a repeated shop',
      get(
        '/admin-get-default-shop-commission-rate?shop=maya-makes.myshopify.com&shop=lumen-botanicals.myshopify.com',
        'shop must be a string',
      ),
    ],
    [
      'an unknown parameter',
      get(
        '/admin-get-default-shop-commission-rate?shop=lumen-botanicals.myshopify.com&brandShop=x',
        'Unknown field brandShop',
      ),
    ],
    ...BAD_SHOPS.map(([name, shop, rule]): [string, BadRequest] => [
      `a shop with ${name}`,
      get(`/admin-get-default-shop-commission-rate?shop=${shopQuery(shop)}`, `shop ${rule}`),
    ]),
  ],

  'POST /admin-set-default-commission-rate': [
    ...bodyCases('/admin-set-default-commission-rate', { defaultCommission }),
    ...fieldCases('/admin-set-default-commission-rate', [
      ['no defaultCommission', {}, 'defaultCommission is required'],
      [
        'an empty defaultCommission',
        { defaultCommission: {} },
        'defaultCommission.brandStoreShop is required; defaultCommission.tandemCommissionRate is required; defaultCommission.creatorCommissionRate is required',
      ],
      [
        'defaultCommission as a string',
        { defaultCommission: 'northwind' },
        'defaultCommission must be an object',
      ],
      [
        'defaultCommission as an array',
        { defaultCommission: [defaultCommission] },
        'defaultCommission must be an object',
      ],
      [
        'an unknown nested field',
        { defaultCommission: { ...defaultCommission, shopType: 'BRAND' } },
        'Unknown field defaultCommission.shopType',
      ],
      ...(['tandemCommissionRate', 'creatorCommissionRate'] as const).flatMap((field) =>
        NOT_RATES.map(([name, value]): [string, object, string] => [
          `${field} as ${name}`,
          { defaultCommission: { ...defaultCommission, [field]: value } },
          `defaultCommission.${field} ${RATE_RULE}`,
        ]),
      ),
      ...(['tandemCommissionRate', 'creatorCommissionRate'] as const).map(
        (field): [string, object, string] => [
          `${field} over 100`,
          { defaultCommission: { ...defaultCommission, [field]: OVER_100 } },
          `defaultCommission.${field} ${RATE_RULE}; Tandem and creator commission rates together must not exceed 100`,
        ],
      ),
      [
        'rates over 100 together',
        {
          defaultCommission: {
            ...defaultCommission,
            tandemCommissionRate: 50,
            creatorCommissionRate: 50.01,
          },
        },
        'Tandem and creator commission rates together must not exceed 100',
      ],
      ...BAD_SHOPS.map(([name, shop, rule]): [string, object, string] => [
        `a brandStoreShop with ${name}`,
        { defaultCommission: { ...defaultCommission, brandStoreShop: shop } },
        `defaultCommission.brandStoreShop ${rule}`,
      ]),
    ]),
    [
      'an infinite rate',
      {
        method: 'POST',
        url: '/admin-set-default-commission-rate',
        payload: JSON.stringify({ defaultCommission }).replace(
          '"tandemCommissionRate":10',
          '"tandemCommissionRate":1e999',
        ),
        contentType: JSON_TYPE,
        message: `defaultCommission.tandemCommissionRate ${RATE_RULE}`,
      },
    ],
  ],

  'GET /admin-get-unique-commission-rates': [
    [
      'a repeated brandShop',
      get(
        '/admin-get-unique-commission-rates?brandShop=lumen-botanicals.myshopify.com&brandShop=northwind-apparel.myshopify.com',
        'brandShop must be a string',
      ),
    ],
    [
      'the string "null" for a shop',
      get('/admin-get-unique-commission-rates?brandShop=null', `brandShop ${SHOP_PATTERN}`),
    ],
    [
      'an unknown parameter',
      get('/admin-get-unique-commission-rates?shop=x', 'Unknown field shop'),
    ],
    ...BAD_SHOPS.map(([name, shop, rule]): [string, BadRequest] => [
      `a creatorShop with ${name}`,
      get(
        `/admin-get-unique-commission-rates?creatorShop=${shopQuery(shop)}`,
        `creatorShop ${rule}`,
      ),
    ]),
  ],

  'POST /admin-create-unique-commission-rate': [
    ...bodyCases('/admin-create-unique-commission-rate', { uniqueCommissionRate: uniqueRate }),
    ...fieldCases('/admin-create-unique-commission-rate', [
      ['no uniqueCommissionRate', {}, 'uniqueCommissionRate is required'],
      [
        'no commissionRate',
        { uniqueCommissionRate: without(uniqueRate, 'commissionRate') },
        'uniqueCommissionRate.commissionRate is required',
      ],
      [
        'no creatorStoreShop',
        { uniqueCommissionRate: without(uniqueRate, 'creatorStoreShop') },
        'uniqueCommissionRate.creatorStoreShop is required',
      ],
      [
        'an unknown nested field',
        { uniqueCommissionRate: { ...uniqueRate, tandemCommissionRate: 5 } },
        'Unknown field uniqueCommissionRate.tandemCommissionRate',
      ],
      ...NOT_RATES.map(([name, value]): [string, object, string] => [
        `commissionRate as ${name}`,
        { uniqueCommissionRate: { ...uniqueRate, commissionRate: value } },
        `uniqueCommissionRate.commissionRate ${RATE_RULE}`,
      ]),
      [
        'commissionRate over 100',
        { uniqueCommissionRate: { ...uniqueRate, commissionRate: OVER_100 } },
        `uniqueCommissionRate.commissionRate ${RATE_RULE}`,
      ],
      ...NOT_STRINGS.map(([name, value]): [string, object, string] => [
        `brandStoreShop as ${name}`,
        { uniqueCommissionRate: { ...uniqueRate, brandStoreShop: value } },
        'uniqueCommissionRate.brandStoreShop must be a string',
      ]),
      ...BAD_SHOPS.map(([name, shop, rule]): [string, object, string] => [
        `a creatorStoreShop with ${name}`,
        { uniqueCommissionRate: { ...uniqueRate, creatorStoreShop: shop } },
        `uniqueCommissionRate.creatorStoreShop ${rule}`,
      ]),
    ]),
  ],

  'DELETE /admin-delete-unique-commission-rate': [
    [
      'no shops',
      del('/admin-delete-unique-commission-rate', 'brandShop is required; creatorShop is required'),
    ],
    [
      'no creatorShop',
      del(
        '/admin-delete-unique-commission-rate?brandShop=lumen-botanicals.myshopify.com',
        'creatorShop is required',
      ),
    ],
    [
      'a repeated creatorShop',
      del(
        '/admin-delete-unique-commission-rate?brandShop=lumen-botanicals.myshopify.com&creatorShop=maya-makes.myshopify.com&creatorShop=maya-makes.myshopify.com',
        'creatorShop must be a string',
      ),
    ],
    ...BAD_SHOPS.map(([name, shop, rule]): [string, BadRequest] => [
      `a brandShop with ${name}`,
      del(
        `/admin-delete-unique-commission-rate?brandShop=${shopQuery(shop)}&creatorShop=maya-makes.myshopify.com`,
        `brandShop ${rule}`,
      ),
    ]),
  ],

  ...Object.fromEntries(
    ['/admin-preview-order-transfer', '/admin-preview-order-transfer-receipt-pdf'].map((path) => [
      `GET ${path}`,
      [
        ['no creatorOrderId', get(path, 'creatorOrderId is required')],
        [
          'a product GID',
          get(
            `${path}?creatorOrderId=gid://shopify/Product/1001`,
            'creatorOrderId must be an order number or an order GID',
          ),
        ],
        [
          'SQL',
          get(
            `${path}?creatorOrderId=${encodeURIComponent("1001' OR 1=1 --")}`,
            'creatorOrderId must be an order number or an order GID',
          ),
        ],
        [
          'Arabic-Indic digits',
          get(
            `${path}?creatorOrderId=${encodeURIComponent('١٠٠١')}`,
            'creatorOrderId must be an order number or an order GID',
          ),
        ],
        [
          'a repeated creatorOrderId',
          get(`${path}?creatorOrderId=1001&creatorOrderId=1002`, 'creatorOrderId must be a string'),
        ],
        ['an unknown parameter', get(`${path}?creatorOrderId=1001&x=1`, 'Unknown field x')],
      ] satisfies [string, BadRequest][],
    ]),
  ),

  // Every value that is not a stock buffer, in the words the console's field says under it
  // (tests/renderer/store-detail-listed-by.test.tsx); the stores' buffers stay as they were.
  'POST /admin-set-stock-buffer': fieldCases(
    '/admin-set-stock-buffer',
    [-5, 1.5, '10,5', '3', 100_001, null].map((units): [string, object, string] => [
      `${JSON.stringify(units)} units`,
      { brandStoreShop: 'northwind-apparel.myshopify.com', units },
      'units must be a whole number of units from 0 to 100000',
    ]),
  ),

  'POST /admin-create-order-transfer': [
    ...bodyCases('/admin-create-order-transfer', { creatorOrderId: '1001' }),
    ...fieldCases('/admin-create-order-transfer', [
      ['no creatorOrderId', {}, 'creatorOrderId is required'],
      ['a number for creatorOrderId', { creatorOrderId: 1001 }, 'creatorOrderId must be a string'],
      ['a blank creatorOrderId', { creatorOrderId: '   ' }, 'Creator order ID is required'],
      [
        'a negative number',
        { creatorOrderId: '-1001' },
        'creatorOrderId must be an order number or an order GID',
      ],
    ]),
  ],
}

/** What bad input must never change. */
const snapshot = async () => ({
  stores: await server.db.selectFrom('stores').selectAll().orderBy('shop').execute(),
  appConfigs: await server.db
    .selectFrom('app_configs')
    .select(['shop', 'client_id', 'shop_type'])
    .orderBy('shop')
    .execute(),
  defaults: await server.db.selectFrom('default_commissions').selectAll().execute(),
  uniques: await server.db.selectFrom('unique_commission_rates').selectAll().execute(),
  transfers: await server.db.selectFrom('order_transfers').selectAll().execute(),
})

describe.each(Object.entries(CALLS))('%s', (_call, cases) => {
  let before: Awaited<ReturnType<typeof snapshot>>
  beforeAll(async () => {
    before = await snapshot()
  })
  afterAll(async () => {
    expect(await snapshot()).toEqual(before)
  })

  it.each(cases)('refuses %s, 400 unless too large', async (_name, request) => {
    const response = await server.app.inject({
      method: request.method,
      url: request.url,
      payload: request.payload,
      headers: {
        ...server.asAdmin,
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
      },
    })
    const status = request.status ?? 400
    expect(response.statusCode).toBe(status)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    const body = response.json()
    expect(Object.keys(body)).toEqual(['error', 'message'])
    expect(body.error).toBe(ERROR_CODES[status])
    if (typeof request.message === 'string') expect(body.message).toBe(request.message)
    else expect(body.message).toMatch(request.message)
  })
})

describe("a store's URL or its domain in any case", () => {
  it.each([
    'https://northwind-apparel.myshopify.com/',
    'http://Northwind-Apparel.myshopify.com',
    ' NORTHWIND-APPAREL.myshopify.com ',
  ])('is read as the shop northwind-apparel.myshopify.com: %s', async (shop) => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/admin-get-default-shop-commission-rate?shop=${shopQuery(shop)}`,
      headers: server.asAdmin,
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ tandemCommissionRate: 10, creatorCommissionRate: 15 })
  })
})

describe('paths and methods the server does not have', () => {
  it.each([
    ['GET', '/no-such-call', 'There is no GET /no-such-call'],
    ['GET', '/create-app-config', 'There is no GET /create-app-config'],
    ['PUT', '/create-app-config', 'There is no PUT /create-app-config'],
    ['POST', '/admin-all-stores?x=1', 'There is no POST /admin-all-stores'],
    ['GET', '/admin-all-stores/extra', 'There is no GET /admin-all-stores/extra'],
    ['DELETE', '/delete-app-config', 'There is no DELETE /delete-app-config'],
  ] as const)('answers a JSON 404 to %s %s', async (method, url, message) => {
    const response = await server.app.inject({ method, url, headers: server.asAdmin })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(response.json()).toEqual({ error: 'not_found', message })
  })
})
