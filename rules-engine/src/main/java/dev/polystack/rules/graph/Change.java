package dev.polystack.rules.graph;

/** How a resource differs between two resolved graphs. */
public enum Change {
    /** Only in the new graph. */
    ADDED,
    /** Only in the old graph: it will be destroyed. */
    REMOVED,
    /** Another module or module version. */
    MODULE_CHANGED,
    /** Same module version, other inputs or provider configuration. */
    INPUTS_CHANGED,
    /** Nothing to do. */
    UNCHANGED
}
