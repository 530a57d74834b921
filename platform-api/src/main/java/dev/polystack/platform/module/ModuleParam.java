package dev.polystack.platform.module;

import dev.polystack.rules.ParamType;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A parameter developers may (or must) give in a manifest for resources of this module. */
public record ModuleParam(
        @NotNull ParamType type,
        Boolean isOptional,
        @Size(max = 1000) String description) {}
