import {
  Kind,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type VariableValues,
} from 'graphql'

// Reading a validated document against the schema: which fields a selection asks for, and which
// of them are connections. Query cost and bulk operation output both walk documents this way.

export interface Walk {
  schema: GraphQLSchema
  document: DocumentNode
  operation: OperationDefinitionNode
  /** The operation's variables as graphql-js coerced them; a bulk query has none. */
  variables?: VariableValues
}

export interface SelectedField {
  node: FieldNode
  def: GraphQLField<unknown, unknown>
}

/** The fields a selection set asks of `parent`, fragments spread out, each with its definition. */
export function selectedFields(
  walk: Walk,
  selectionSet: SelectionSetNode | undefined,
  parent: GraphQLCompositeType,
): SelectedField[] {
  const fields: SelectedField[] = []
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const def =
        isObjectType(parent) || isInterfaceType(parent)
          ? parent.getFields()[selection.name.value]
          : undefined
      // Introspection fields (__typename…) have no definition here: they cost nothing and hold
      // no connection.
      if (def) fields.push({ node: selection, def })
      continue
    }
    const fragment =
      selection.kind === Kind.FRAGMENT_SPREAD
        ? walk.document.definitions.find(
            (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
          )
        : selection
    if (!fragment || !('selectionSet' in fragment)) continue
    const condition = 'typeCondition' in fragment ? fragment.typeCondition : undefined
    const type = condition ? walk.schema.getType(condition.name.value) : parent
    if (type && isCompositeType(type))
      fields.push(...selectedFields(walk, fragment.selectionSet, type))
  }
  return fields
}

export const isConnection = (def: GraphQLField<unknown, unknown>) =>
  getNamedType(def.type).name.endsWith('Connection')

export const responseKey = (node: FieldNode) => node.alias?.value ?? node.name.value

/** The selections made of one node of a connection, through `nodes` or `edges { node }`. */
export function nodeSelections(walk: Walk, field: SelectedField) {
  const connectionType = getNamedType(field.def.type) as GraphQLCompositeType
  const views: { key: string; edge?: string; selection: SelectedField }[] = []
  for (const inner of selectedFields(walk, field.node.selectionSet, connectionType)) {
    if (inner.def.name === 'nodes') views.push({ key: responseKey(inner.node), selection: inner })
    if (inner.def.name !== 'edges') continue
    const edgeType = getNamedType(inner.def.type) as GraphQLCompositeType
    for (const node of selectedFields(walk, inner.node.selectionSet, edgeType))
      if (node.def.name === 'node')
        views.push({ key: responseKey(inner.node), edge: responseKey(node.node), selection: node })
  }
  return views
}
