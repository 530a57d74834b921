import { useEffect, useMemo, useRef, useState } from 'react'
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
  type ReactFlowInstance,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { toneOf } from '../components/Status'
import { layoutGraph, NODE_WIDTH, type GraphEdgeInput, type GraphNodeInput } from './layout'

type ResourceNodeData = { label: string; sublabel?: string; status?: string; issues?: number; selected: boolean }

function ResourceNode({ data }: NodeProps<Node<ResourceNodeData>>) {
  return (
    <div
      className={`graph-node ${toneOf(data.status)}${data.selected ? ' selected' : ''}`}
      style={{ width: NODE_WIDTH }}
      title={`${data.label} — ${data.sublabel ? `${data.sublabel} · ` : ''}${data.status ?? ''}`}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="title">
        {data.label}
        {data.issues ? (
          <span className="badge wait issue-count" title="open issues">
            {data.issues} ⚠
          </span>
        ) : null}
      </div>
      <div className="sub">
        {data.sublabel}
        {data.status ? ` · ${data.status.replace(/_/g, ' ')}` : ''}
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  )
}

const nodeTypes = { resource: ResourceNode }

/**
 * A resource graph laid out in layers (dependencies above dependents), nodes coloured by status with
 * the status also written, edges labelled by alias. Pan, zoom and select; arrow-free keyboard users
 * can pick nodes from the list that accompanies it.
 */
export function ResourceGraph({
  nodes,
  edges,
  selected,
  onSelect,
  label,
}: {
  nodes: GraphNodeInput[]
  edges: GraphEdgeInput[]
  selected?: string | null
  onSelect?: (key: string | null) => void
  label: string
}) {
  // the layout only depends on the shape of the graph, not on statuses
  const shape = nodes.map((n) => n.key).join('|') + '#' + edges.map((e) => `${e.from}>${e.to}`).join('|')
  /* eslint-disable react-hooks/purity -- data-layout-ms tells the browser test how long the layout took: timing it is
     impure on purpose, and memoized per shape, so a re-render does not time it again */
  const positioned = useMemo(() => {
    const started = performance.now()
    const result = layoutGraph(nodes, edges)
    return { ...result, ms: performance.now() - started }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape])
  /* eslint-enable react-hooks/purity */
  const [rendered, setRendered] = useState(false)
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- data-rendered turns true in a render after the first commit, which the browser test waits for
    setRendered(true)
  }, [])

  // the drawing is fitted to the canvas again whenever its layout or a status changes (edges that come after
  // the nodes lay it out anew), until the user pans or zooms; the fit button hands it back
  const flow = useRef<ReactFlowInstance<Node<ResourceNodeData>, Edge> | null>(null)
  const userMoved = useRef(false)
  const statuses = nodes.map((n) => n.status ?? '').join('|')
  useEffect(() => {
    if (userMoved.current || !flow.current) return
    let second = 0
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => {
        void flow.current?.fitView()
      })
    })
    return () => {
      cancelAnimationFrame(first)
      cancelAnimationFrame(second)
    }
  }, [shape, statuses])

  const flowNodes = useMemo<Node<ResourceNodeData>[]>(
    () =>
      nodes.map((n) => ({
        id: n.key,
        type: 'resource',
        position: positioned.positions.get(n.key) ?? { x: 0, y: 0 },
        data: { label: n.label, sublabel: n.sublabel, status: n.status, issues: n.issues, selected: n.key === selected },
        draggable: false,
        connectable: false,
        ariaLabel: `${n.label}, ${n.sublabel ?? ''}, ${n.status ?? ''}${n.issues ? `, ${n.issues} open issue${n.issues === 1 ? '' : 's'}` : ''}`,
      })),
    [nodes, positioned, selected],
  )

  const flowEdges = useMemo<Edge[]>(
    () =>
      edges.map((e, i) => ({
        id: `e${i}`,
        source: e.to,
        target: e.from,
        label: e.label,
        markerEnd: { type: MarkerType.ArrowClosed },
        labelStyle: { fontSize: 11 },
        labelBgPadding: [4, 2] as [number, number],
      })),
    [edges],
  )

  return (
    <div
      className="graph"
      role="figure"
      aria-label={label}
      data-layout-ms={positioned.ms.toFixed(1)}
      data-nodes={nodes.length}
      data-rendered={rendered ? 'true' : 'false'}>
      <ReactFlow
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={nodeTypes}
        fitView
        minZoom={0.05}
        maxZoom={2}
        onlyRenderVisibleElements={nodes.length > 150}
        nodesDraggable={false}
        nodesConnectable={false}
        onInit={(instance) => {
          flow.current = instance
        }}
        onMoveStart={(event) => {
          if (event) userMoved.current = true
        }}
        onNodeClick={(_, node) => onSelect?.(node.id)}
        onPaneClick={() => onSelect?.(null)}>
        <Background gap={24} />
        <Controls
          showInteractive={false}
          onZoomIn={() => {
            userMoved.current = true
          }}
          onZoomOut={() => {
            userMoved.current = true
          }}
          onFitView={() => {
            userMoved.current = false
          }}
        />
        {nodes.length > 30 && <MiniMap pannable zoomable />}
      </ReactFlow>
    </div>
  )
}
