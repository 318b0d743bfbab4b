// Captured graphs written out for inspection: with HARENA_GRAPH_DOT=<folder>,
// each graph a cache instantiates is written there as Graphviz text
// (cuGraphDebugDotPrint, verbose: every node's kernel, grid and parameters).
#pragma once

namespace harena::detail {

// Writes `graph` as <folder>/harena-graph-<n>.dot where asked; nothing else.
void dump_graph_if_asked(void *graph);

}  // namespace harena::detail
