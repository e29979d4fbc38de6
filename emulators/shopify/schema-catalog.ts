// The catalogue part of the schema: what a listing reads of a product and writes with productSet,
// the shop's location and inventorySetQuantities. Shopify's names and shapes, as far as Tandem
// reads and writes them; what the emulator cannot model (metafield-linked options, custom ids,
// videos, costs) is left out, so that a request using it fails validation instead of being ignored.

export const catalogTypes = `
  scalar HTML

  type ProductOptionValue { id: ID!, name: String!, hasVariants: Boolean! }

  type ProductOption implements Node {
    id: ID!
    name: String!
    position: Int!
    values: [String!]!
    optionValues: [ProductOptionValue!]!
  }

  type SelectedOption { name: String!, value: String! }

  "A location; a fulfillment service's has its service (a 3PL's warehouse)."
  type Location implements Node {
    id: ID!
    name: String!
    isActive: Boolean!
    isFulfillmentService: Boolean!
    fulfillmentService: FulfillmentService
  }

  type FulfillmentService { serviceName: String! }

  type InventoryItem implements Node {
    id: ID!
    sku: String
    tracked: Boolean!
    variant: ProductVariant!
  }

  enum ProductOperationStatus { ACTIVE COMPLETE CREATED }

  interface ProductOperation { product: Product, status: ProductOperationStatus! }

  type ProductSetOperation implements Node & ProductOperation {
    id: ID!
    product: Product
    status: ProductOperationStatus!
    userErrors: [ProductSetUserError!]!
  }

  input ProductSetIdentifiers { id: ID, handle: String }

  input OptionValueSetInput { id: ID, name: String }

  input OptionSetInput { id: ID, name: String, position: Int, values: [OptionValueSetInput!] }

  enum FileContentType { EXTERNAL_VIDEO FILE IMAGE MODEL_3D VIDEO }

  input FileSetInput { id: ID, originalSource: String, contentType: FileContentType, alt: String }

  input VariantOptionValueInput { id: ID, name: String, optionId: ID, optionName: String }

  input InventoryItemInput { sku: String, tracked: Boolean }

  input ProductSetInventoryInput { locationId: ID!, name: String!, quantity: Int! }

  input ProductVariantSetInput {
    id: ID
    optionValues: [VariantOptionValueInput!]!
    price: Money
    sku: String
    inventoryPolicy: ProductVariantInventoryPolicy
    inventoryItem: InventoryItemInput
    inventoryQuantities: [ProductSetInventoryInput!]
  }

  input ProductSetInput {
    id: ID
    title: String
    descriptionHtml: String
    vendor: String
    handle: String
    status: ProductStatus
    productOptions: [OptionSetInput!]
    files: [FileSetInput!]
    variants: [ProductVariantSetInput!]
  }

  enum ProductSetUserErrorCode {
    CANNOT_COMBINE_LINKED_AND_NONLINKED_OPTION_VALUES CAPABILITY_VIOLATION DUPLICATE_LINKED_OPTION
    DUPLICATED_METAFIELD_VALUE DUPLICATED_OPTION_NAME DUPLICATED_OPTION_VALUE DUPLICATED_VALUE
    GENERIC_ERROR GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED GIFT_CARDS_NOT_ACTIVATED HANDLE_NOT_UNIQUE
    ID_NOT_ALLOWED INPUT_MISMATCH INVALID_INPUT INVALID_METAFIELD
    INVALID_METAFIELD_VALUE_FOR_LINKED_OPTION INVALID_PRODUCT INVALID_VARIANT
    INVENTORY_QUANTITIES_LIMIT_EXCEEDED JOB_ERROR LINKED_METAFIELD_DEFINITION_NOT_FOUND
    LINKED_OPTIONS_NOT_SUPPORTED_FOR_SHOP METAFIELD_MISMATCH MISSING_FIELD_REQUIRED NOT_FOUND
    OPTION_DOES_NOT_EXIST OPTION_VALUE_DOES_NOT_EXIST OPTION_VALUES_MISSING OPTION_VALUES_OVER_LIMIT
    OPTIONS_OVER_LIMIT PRODUCT_DOES_NOT_EXIST PRODUCT_OPTIONS_INPUT_MISSING PRODUCT_SUSPENDED
    PRODUCT_VARIANT_DOES_NOT_EXIST VARIANTS_INPUT_MISSING VARIANTS_OVER_LIMIT
  }

  type ProductSetUserError { field: [String!], message: String!, code: ProductSetUserErrorCode }

  type ProductSetPayload {
    product: Product
    productSetOperation: ProductSetOperation
    userErrors: [ProductSetUserError!]!
  }

  input InventoryQuantityInput {
    inventoryItemId: ID!
    locationId: ID!
    quantity: Int!
    "Mandatory since 2026-04, though nullable: null opts out of the compare-and-swap check."
    changeFromQuantity: Int
  }

  input InventorySetQuantitiesInput {
    name: String!
    reason: String!
    referenceDocumentUri: URL
    quantities: [InventoryQuantityInput!]!
  }

  type InventoryChange {
    name: String!
    delta: Int!
    quantityAfterChange: Int
    item: InventoryItem
    location: Location
  }

  type InventoryAdjustmentGroup implements Node {
    id: ID!
    createdAt: DateTime!
    reason: String!
    referenceDocumentUri: URL
    changes(inventoryItemIds: [ID!], locationIds: [ID!], quantityNames: [String!]):
      [InventoryChange!]!
  }

  # As of 2026-10, without ITEM_NOT_STOCKED_AT_LOCATION: quantities may be set at any location
  # (Shopify's changelog, "Removal of ITEM_NOT_STOCKED_AT_LOCATION error").
  enum InventorySetQuantitiesUserErrorCode {
    CHANGE_FROM_QUANTITY_STALE COMPARE_QUANTITY_REQUIRED COMPARE_QUANTITY_STALE
    IDEMPOTENCY_CONCURRENT_REQUEST IDEMPOTENCY_KEY_PARAMETER_MISMATCH
    IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED INVALID_INVENTORY_ITEM INVALID_LOCATION INVALID_NAME
    INVALID_QUANTITY_NEGATIVE INVALID_QUANTITY_TOO_HIGH INVALID_QUANTITY_TOO_LOW INVALID_REASON
    INVALID_REFERENCE_DOCUMENT NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR
    NON_MUTABLE_INVENTORY_ITEM
  }

  type InventorySetQuantitiesUserError {
    field: [String!]
    message: String!
    code: InventorySetQuantitiesUserErrorCode
  }

  type InventorySetQuantitiesPayload {
    inventoryAdjustmentGroup: InventoryAdjustmentGroup
    userErrors: [InventorySetQuantitiesUserError!]!
  }
`
