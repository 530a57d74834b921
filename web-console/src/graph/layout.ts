import { Graph, layout } from '@dagrejs/dagre'

export interface GraphNodeInput {
  /** type/class/id */
  key: string
  label: string
  sublabel?: string
  status?: string
  /** open issues of the resource, shown as a badge */
  issues?: number
}

export interface GraphEdgeInput {
  /** the dependent */
  from: string
  /** what it depends on */
  to: string
  label?: string
}

export const NODE_WIDTH = 180
export const NODE_HEIGHT = 48

export interface Positioned {
  positions: Map<string, { x: number; y: number }>
  width: number
  height: number
}

/**
 * Layers the graph top-down with dependencies above their dependents (dagre's layered layout).
 * Edges to unknown nodes are ignored.
 */
export function layoutGraph(nodes: GraphNodeInput[], edges: GraphEdgeInput[]): Positioned {
  const g = new Graph({ multigraph: true })
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 16, marginy: 16 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const node of nodes) g.setNode(node.key, { width: NODE_WIDTH, height: NODE_HEIGHT })
  edges.forEach((edge, i) => {
    if (g.hasNode(edge.from) && g.hasNode(edge.to)) g.setEdge(edge.to, edge.from, {}, `e${i}`)
  })
  layout(g)
  const positions = new Map<string, { x: number; y: number }>()
  for (const key of g.nodes()) {
    const n = g.node(key)
    // dagre gives centres; React Flow wants top-left corners
    positions.set(key, { x: n.x - NODE_WIDTH / 2, y: n.y - NODE_HEIGHT / 2 })
  }
  const label = g.graph()
  return { positions, width: label.width ?? 0, height: label.height ?? 0 }
}

/** type/class/id → the label people use: the id, with the class when it is not "default". */
export function splitKey(key: string): { type: string; resourceClass: string; id: string } {
  const [type, resourceClass, ...rest] = key.split('/')
  return { type, resourceClass, id: rest.join('/') }
}
