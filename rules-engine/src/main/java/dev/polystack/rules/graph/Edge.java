package dev.polystack.rules.graph;

import dev.polystack.rules.ResourceIdentity;

/** {@code from} depends on {@code to}; {@code alias} is how {@code from} refers to it. */
public record Edge(ResourceIdentity from, ResourceIdentity to, String alias) {}
