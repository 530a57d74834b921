import { describe, expect, it } from 'vitest'
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type GraphEdgeInput, type GraphNodeInput } from './layout'

function chain(n: number) {
  const nodes: GraphNodeInput[] = Array.from({ length: n }, (_, i) => ({ key: `thing/default/r${i}`, label: `r${i}` }))
  const edges: GraphEdgeInput[] = []
  // r(i) depends on r(i-1) and, for a wider graph, on r(i-7)
  for (let i = 1; i < n; i++) {
    edges.push({ from: `thing/default/r${i}`, to: `thing/default/r${i - 1}`, label: 'prev' })
    if (i >= 7) edges.push({ from: `thing/default/r${i}`, to: `thing/default/r${i - 7}` })
  }
  return { nodes, edges }
}

/** A layered graph like real environments: a few shared resources, many workloads using them. */
function environment(workloads: number, perWorkload: number) {
  const nodes: GraphNodeInput[] = [
    { key: 'vpc/default/shared.vpc', label: 'vpc' },
    { key: 'dns/default/shared.dns', label: 'dns' },
  ]
  const edges: GraphEdgeInput[] = []
  for (let w = 0; w < workloads; w++) {
    for (let r = 0; r < perWorkload; r++) {
      const key = `thing/default/w${w}.r${r}`
      nodes.push({ key, label: key })
      edges.push({ from: key, to: r === 0 ? 'vpc/default/shared.vpc' : `thing/default/w${w}.r${r - 1}` })
      if (r === perWorkload - 1) edges.push({ from: key, to: 'dns/default/shared.dns', label: 'dns' })
    }
  }
  return { nodes, edges }
}

describe('layoutGraph', () => {
  it('puts every dependency above what depends on it', () => {
    const { nodes, edges } = chain(30)
    const { positions } = layoutGraph(nodes, edges)
    for (const e of edges) {
      expect(positions.get(e.to)!.y).toBeLessThan(positions.get(e.from)!.y)
    }
  })

  it('ignores edges to resources that are not in the graph', () => {
    const { positions } = layoutGraph([{ key: 'a/default/x', label: 'x' }], [{ from: 'a/default/x', to: 'a/default/gone' }])
    expect([...positions.keys()]).toEqual(['a/default/x'])
  })

  it('lays out 500 resources without overlaps', () => {
    const { nodes, edges } = environment(83, 6)
    expect(nodes.length).toBe(500)
    const started = performance.now()
    const { positions, width, height } = layoutGraph(nodes, edges)
    const ms = performance.now() - started
    console.log(
      `layout of ${nodes.length} nodes and ${edges.length} edges: ${ms.toFixed(0)} ms (${Math.round(width)}x${Math.round(height)} px)`,
    )
    expect(positions.size).toBe(500)
    const boxes = [...positions.values()]
    const byRow = new Map<number, number[]>()
    for (const b of boxes) byRow.set(Math.round(b.y), [...(byRow.get(Math.round(b.y)) ?? []), b.x])
    for (const xs of byRow.values()) {
      xs.sort((a, b) => a - b)
      for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(NODE_WIDTH)
    }
    const rows = [...byRow.keys()].sort((a, b) => a - b)
    for (let i = 1; i < rows.length; i++) expect(rows[i] - rows[i - 1]).toBeGreaterThanOrEqual(NODE_HEIGHT)
  })
})
