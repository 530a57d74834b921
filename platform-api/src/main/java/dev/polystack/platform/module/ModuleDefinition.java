package dev.polystack.platform.module;

import com.fasterxml.jackson.databind.JsonNode;

/** The content of a module version, as stored (JSON documents in snake_case). */
public record ModuleDefinition(
        String moduleSource,
        String moduleSourceCode,
        JsonNode moduleParams,
        JsonNode moduleInputs,
        JsonNode providerMapping,
        JsonNode dependencies) {

    /** The value of {@code module_source} for modules whose code is kept in Polystack. */
    public static final String INLINE = "inline";

    public boolean isInline() {
        return INLINE.equals(moduleSource);
    }
}
