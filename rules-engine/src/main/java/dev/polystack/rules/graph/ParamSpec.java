package dev.polystack.rules.graph;

import dev.polystack.rules.ParamType;

import java.util.Objects;

/** A module parameter: its type and whether a manifest may leave it out. */
public record ParamSpec(ParamType type, boolean optional) {

    public ParamSpec {
        Objects.requireNonNull(type, "type");
    }
}
